import { transitionErrorOf } from "../platform/errors.ts";
import type { EventType } from "../events/types.ts";
import type { MaintenanceState } from "../generated/prisma/client.ts";
import type { ExposedTransition } from "../graphql/transitions.ts";

/** What becomes of the linked system announcement (Waldur's manage_maintenance_admin_announcements). */
export type AnnouncementEffect = "create" | "remove" | "refresh";

export interface MaintenanceEffect {
  /** The moment of the transition is stored as this field. */
  stamps?: "actualStart" | "actualEnd";
  announcement: AnnouncementEffect;
  eventType: EventType;
  /** The 200 response body's `detail`. */
  detail: string;
}

type Rule = ExposedTransition<MaintenanceState, MaintenanceEffect>;

/** Waldur §4.2: one action per row, POST /api/maintenance-announcements/{uuid}/<action>/. */
export const MAINTENANCE_TRANSITIONS = {
  schedule: {
    mutation: "scheduleMaintenance",
    from: ["DRAFT"],
    to: "SCHEDULED",
    effect: {
      announcement: "create",
      eventType: "maintenance_announcement_scheduled",
      detail: "Maintenance announcement has been scheduled",
    },
  },
  unschedule: {
    mutation: "unscheduleMaintenance",
    from: ["SCHEDULED"],
    to: "DRAFT",
    effect: {
      announcement: "remove",
      eventType: "maintenance_announcement_unscheduled",
      detail: "Maintenance announcement has been unscheduled",
    },
  },
  start_maintenance: {
    mutation: "startMaintenance",
    from: ["SCHEDULED"],
    to: "IN_PROGRESS",
    effect: {
      stamps: "actualStart",
      announcement: "refresh",
      eventType: "maintenance_announcement_started",
      detail: "Maintenance announcement has been started",
    },
  },
  complete_maintenance: {
    mutation: "completeMaintenance",
    from: ["IN_PROGRESS"],
    to: "COMPLETED",
    effect: {
      stamps: "actualEnd",
      announcement: "refresh",
      eventType: "maintenance_announcement_completed",
      detail: "Maintenance announcement has been completed",
    },
  },
  cancel_maintenance: {
    mutation: "cancelMaintenance",
    from: ["DRAFT", "SCHEDULED"],
    to: "CANCELLED",
    effect: {
      announcement: "remove",
      eventType: "maintenance_announcement_cancelled",
      detail: "Maintenance announcement has been cancelled",
    },
  },
} as const satisfies Record<string, Rule>;

export type MaintenanceAction = keyof typeof MAINTENANCE_TRANSITIONS;
export const MAINTENANCE_ACTIONS = Object.keys(MAINTENANCE_TRANSITIONS) as MaintenanceAction[];
export const maintenanceRule = (action: MaintenanceAction): Rule => MAINTENANCE_TRANSITIONS[action];

/** How this machine refuses an action from a state its table does not allow. */
export class MaintenanceTransitionError extends transitionErrorOf<MaintenanceState>() {}
