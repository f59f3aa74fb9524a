import type { MaintenanceState, Prisma } from "../generated/prisma/client.ts";
import { choiceFilter, defineContract, type Direction } from "../platform/collection-contract.ts";
import { MAINTENANCE_STATES } from "./enums.ts";
import { parseTimingBuckets, type TimingBucket } from "./timing.ts";

const STATE_BY_LABEL = Object.fromEntries(
  Object.entries(MAINTENANCE_STATES).map(([state, { label }]) => [label, state as MaintenanceState]),
);

/** Announcements whose computed timing bucket is one of these; the service resolves it (listing.ts), as Prisma cannot. */
export interface TimingCondition {
  timingBuckets: TimingBucket[];
}
export type MaintenanceCondition = Prisma.MaintenanceAnnouncementWhereInput | TimingCondition;
export const isTimingCondition = (condition: MaintenanceCondition): condition is TimingCondition => "timingBuckets" in condition;

/** A stored column, or a computed timing value (which only SQL can order by: listing.ts). */
export type MaintenanceOrderField = "created" | "name" | "scheduledStart" | "scheduledEnd" | "id" | "startDeltaMinutes" | "overrunMinutes";
export interface MaintenanceOrderTerm {
  field: MaintenanceOrderField;
  direction: Direction;
}
const by = (field: MaintenanceOrderField) => (direction: Direction) => ({ field, direction });

/** Waldur's MaintenanceAnnouncementFilter; `defaultOrder` differs between the management and the public list. */
const maintenanceContract = (defaultOrder: readonly string[]) =>
  defineContract<MaintenanceCondition, MaintenanceOrderTerm>()({
    filters: {
      state: choiceFilter({
        rest: "state",
        labels: STATE_BY_LABEL,
        enumName: "MaintenanceState",
        description: "Any of these states",
        where: (states) => ({ state: { in: states } }),
      }),
      maintenanceType: { kind: "int", rest: "maintenance_type", description: "1-5", where: (maintenanceType) => ({ maintenanceType }) },
      serviceProviderUuid: {
        kind: "uuids",
        rest: { service_provider_uuid: "uuid" },
        where: (ids) => ({ serviceProviderId: { in: ids } }),
      },
      scheduledStartAfter: { kind: "after", rest: "scheduled_start_after", description: "Inclusive", where: (gte) => ({ scheduledStart: { gte } }) },
      scheduledStartBefore: { kind: "before", rest: "scheduled_start_before", description: "Inclusive", where: (lte) => ({ scheduledStart: { lte } }) },
      scheduledEndAfter: { kind: "after", rest: "scheduled_end_after", description: "Inclusive", where: (gte) => ({ scheduledEnd: { gte } }) },
      scheduledEndBefore: { kind: "before", rest: "scheduled_end_before", description: "Inclusive", where: (lte) => ({ scheduledEnd: { lte } }) },
      timingBucket: {
        kind: "text",
        rest: "timing_bucket",
        description: "Comma-separated: on_time, late_start, overrun, early, pending",
        where: (text) => ({ timingBuckets: parseTimingBuckets(text) }),
      },
    },
    orderings: {
      created: by("created"),
      name: by("name"),
      scheduled_start: by("scheduledStart"),
      scheduled_end: by("scheduledEnd"),
      overrun_minutes: by("overrunMinutes"),
      start_delta_minutes: by("startDeltaMinutes"),
    },
    defaultOrder,
    tiebreak: [
      { field: "created", direction: "desc" },
      { field: "id", direction: "asc" },
    ],
  });

export const MAINTENANCE_CONTRACT = maintenanceContract(["-created"]);
export const PUBLIC_MAINTENANCE_CONTRACT = maintenanceContract(["-scheduled_start"]);

/** Waldur's offering links take no filters; these two are ours (a parameter Waldur does not know). */
export const MAINTENANCE_OFFERING_CONTRACT = defineContract<
  Prisma.MaintenanceAnnouncementOfferingWhereInput,
  Prisma.MaintenanceAnnouncementOfferingOrderByWithRelationInput
>()({
  filters: {
    maintenanceUuid: { kind: "uuids", rest: { maintenance_uuid: "uuid" }, where: (ids) => ({ maintenanceId: { in: ids } }) },
    offeringUuid: { kind: "uuids", rest: { offering_uuid: "uuid" }, where: (ids) => ({ offeringId: { in: ids } }) },
  },
  orderings: { created: (direction) => ({ created: direction }) },
  defaultOrder: ["-created"],
  tiebreak: [{ id: "asc" }],
});
