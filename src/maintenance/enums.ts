import type { AnnouncementType, MaintenanceState } from "../generated/prisma/client.ts";

/** Waldur's database integer and display label of each status; the REST API shows labels. */
export const MAINTENANCE_STATES: Record<MaintenanceState, { code: number; label: string }> = {
  DRAFT: { code: 1, label: "Draft" },
  SCHEDULED: { code: 2, label: "Scheduled" },
  IN_PROGRESS: { code: 3, label: "In progress" },
  COMPLETED: { code: 4, label: "Completed" },
  CANCELLED: { code: 5, label: "Cancelled" },
};

export const maintenanceStateLabel = (state: MaintenanceState) => MAINTENANCE_STATES[state].label;


/** The statuses the public view shows (Waldur §4.4). */
export const PUBLIC_STATES: readonly MaintenanceState[] = ["SCHEDULED", "IN_PROGRESS", "COMPLETED"];
export const isPublicState = (state: string | null | undefined) => PUBLIC_STATES.includes(state as MaintenanceState);

/**
 * maintenance_type: the integer, its display name, and the system announcement it becomes once scheduled
 * (Waldur's MaintenanceAnnouncementTemplate: prefix of the text and announcement type).
 */
export const MAINTENANCE_TYPES: Record<number, { display: string; prefix: string; announcementType: AnnouncementType }> = {
  1: { display: "Scheduled maintenance", prefix: "🔧 Scheduled Maintenance", announcementType: "INFORMATION" },
  2: { display: "Emergency maintenance", prefix: "🚨 Emergency Maintenance", announcementType: "DANGER" },
  3: { display: "Security maintenance", prefix: "🔒 Security Maintenance", announcementType: "WARNING" },
  4: { display: "System upgrade", prefix: "🔧 Scheduled Maintenance", announcementType: "INFORMATION" },
  5: { display: "Patch deployment", prefix: "🔧 Scheduled Maintenance", announcementType: "INFORMATION" },
};
export const isMaintenanceType = (value: number) => Object.hasOwn(MAINTENANCE_TYPES, value);
export const maintenanceTypeDisplay = (value: number) => MAINTENANCE_TYPES[value]?.display ?? String(value);

export const IMPACT_LEVELS: Record<number, string> = {
  1: "No impact",
  2: "Degraded performance",
  3: "Partial outage",
  4: "Full outage",
};
export const isImpactLevel = (value: number) => Object.hasOwn(IMPACT_LEVELS, value);
export const impactLevelDisplay = (value: number) => IMPACT_LEVELS[value] ?? String(value);

/** AdminAnnouncement.type as Waldur writes it. */
export const ANNOUNCEMENT_TYPE_LABELS: Record<AnnouncementType, string> = {
  INFORMATION: "information",
  WARNING: "warning",
  DANGER: "danger",
};
