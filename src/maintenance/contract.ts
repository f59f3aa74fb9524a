import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { choiceFilter, defineContract, type Direction, valuesByLabel } from "../collections/contract.ts";
import { MAINTENANCE_STATES, maintenanceTypes } from "./enums.ts";
import { parseTimingBuckets, SCHEDULE, type TimingBucket, timingOf } from "./timing.ts";
import { findMany } from "../platform/reads/sql/find.ts";

const STATE_BY_LABEL = valuesByLabel(MAINTENANCE_STATES);

type Where = Prisma.MaintenanceAnnouncementWhereInput;

/** The request as the announcement filters read it: its context, and the announcements the list is drawn from. */
export interface MaintenanceRequest {
  ctx: Context;
  within: Where;
}

/** Announcements of the list whose computed timing bucket is one of these: Prisma cannot compute it, so their schedules are read. */
async function inTimingBuckets({ ctx, within }: MaintenanceRequest, buckets: TimingBucket[]): Promise<Where> {
  const candidates = await findMany(ctx.db, "maintenanceAnnouncement", { where: within, select: { id: true, ...SCHEDULE } });
  return { id: { in: candidates.filter((m) => buckets.includes(timingOf(m).timingBucket)).map((m) => m.id) } };
}

/** A stored column, or a computed timing value (which only SQL can order by: listing.ts). */
export type MaintenanceOrderField = "created" | "name" | "scheduledStart" | "scheduledEnd" | "id" | "startDeltaMinutes" | "overrunMinutes";
export interface MaintenanceOrderTerm {
  field: MaintenanceOrderField;
  direction: Direction;
}
const by = (field: MaintenanceOrderField) => (direction: Direction) => ({ field, direction });

/** Waldur's MaintenanceAnnouncementFilter; `defaultOrder` differs between the management and the public list. */
const maintenanceContract = (defaultOrder: readonly string[]) =>
  defineContract<Where, MaintenanceOrderTerm, MaintenanceRequest>()({
    filters: {
      state: choiceFilter({
        rest: "state",
        labels: STATE_BY_LABEL,
        enumName: "MaintenanceState",
        description: "Any of these states",
        where: (states) => ({ state: { in: states } }),
      }),
      maintenanceType: choiceFilter({
        rest: "maintenance_type",
        labels: maintenanceTypes.byRestSpelling,
        enumName: "MaintenanceType",
        description: "Any of these types",
        where: (types) => ({ maintenanceType: { in: types.map(maintenanceTypes.codeOf) } }),
      }),
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
        where: (text) => {
          const buckets = parseTimingBuckets(text);
          return (request) => inTimingBuckets(request, buckets);
        },
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
