import type { MaintenanceState, Prisma } from "../generated/prisma/client.ts";
import { fieldError } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";

export interface MaintenanceFilter {
  state?: MaintenanceState[] | null;
  maintenanceType?: number[] | null;
  serviceProviderUuid?: string | null;
  scheduledStartAfter?: Date | null;
  scheduledStartBefore?: Date | null;
  scheduledEndAfter?: Date | null;
  scheduledEndBefore?: Date | null;
}

export const MAINTENANCE_ORDER = {
  CREATED_ASC: { created: "asc" },
  CREATED_DESC: { created: "desc" },
  NAME_ASC: { name: "asc" },
  NAME_DESC: { name: "desc" },
  SCHEDULED_START_ASC: { scheduledStart: "asc" },
  SCHEDULED_START_DESC: { scheduledStart: "desc" },
  SCHEDULED_END_ASC: { scheduledEnd: "asc" },
  SCHEDULED_END_DESC: { scheduledEnd: "desc" },
} as const satisfies Record<string, Prisma.MaintenanceAnnouncementOrderByWithRelationInput>;
export type MaintenanceOrder = keyof typeof MAINTENANCE_ORDER;

/** Waldur's REST names of the orderings: `scheduled_start`, `-created`, … */
export const MAINTENANCE_ORDER_PARAMS: Record<string, MaintenanceOrder> = Object.fromEntries(
  (Object.keys(MAINTENANCE_ORDER) as MaintenanceOrder[]).map((order) => {
    const field = order.replace(/_(ASC|DESC)$/, "").toLowerCase();
    return [order.endsWith("_DESC") ? `-${field}` : field, order];
  }),
);

/** `fallback` is the view's default (-created for management, -scheduled_start for the public view). */
export function maintenanceOrderBy(order: MaintenanceOrder[] | null | undefined, fallback: MaintenanceOrder) {
  const chosen = order?.length ? order : [fallback];
  return [...chosen.map((o) => MAINTENANCE_ORDER[o]), { created: "desc" as const }, { id: "asc" as const }];
}

export function uuidOf(field: string, value: string): string {
  const uuid = parseUuid(value);
  if (!uuid) throw fieldError(field, "Enter a valid UUID.");
  return uuid;
}

/** django-filter's range filters: `_after` is inclusive from, `_before` inclusive to. */
const range = (after: Date | null | undefined, before: Date | null | undefined): Prisma.DateTimeFilter | undefined =>
  after || before ? { ...(after ? { gte: after } : {}), ...(before ? { lte: before } : {}) } : undefined;

export function maintenanceWhere(filter: MaintenanceFilter | null | undefined): Prisma.MaintenanceAnnouncementWhereInput[] {
  if (!filter) return [];
  const f = filter;
  const where: Prisma.MaintenanceAnnouncementWhereInput[] = [];
  if (f.state?.length) where.push({ state: { in: f.state } });
  if (f.maintenanceType?.length) where.push({ maintenanceType: { in: f.maintenanceType } });
  if (f.serviceProviderUuid) where.push({ serviceProviderId: uuidOf("service_provider_uuid", f.serviceProviderUuid) });
  const start = range(f.scheduledStartAfter, f.scheduledStartBefore);
  if (start) where.push({ scheduledStart: start });
  const end = range(f.scheduledEndAfter, f.scheduledEndBefore);
  if (end) where.push({ scheduledEnd: end });
  return where;
}
