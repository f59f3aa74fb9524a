import type { Prisma } from "../generated/prisma/client.ts";
import { fieldError } from "../platform/errors.ts";
import { utcDate } from "../platform/timestamps.ts";
import { uuidOf } from "../resources/filters.ts";

/** Filters shared by component usages and user usages; dates select billing periods and report dates. */
export interface UsageFilter {
  resourceUuid?: string | null;
  offeringUuid?: string | null;
  projectUuid?: string | null;
  customerUuid?: string | null;
  /** Component type. */
  type?: string | null;
  billingPeriod?: Date | null;
  billingPeriodYear?: number | null;
  billingPeriodMonth?: number | null;
  dateAfter?: Date | null;
  dateBefore?: Date | null;
  /** User usages only. */
  username?: string | null;
}

/** Year and month of a billing period as REST reads them; GraphQL's Int lets anything through, and a year beyond 9999 is no date. */
const PERIOD_PARTS = [
  ["billingPeriodYear", "billing_period_year", 1, 9999],
  ["billingPeriodMonth", "billing_period_month", 1, 12],
] as const;

function checkPeriodParts(f: UsageFilter) {
  for (const [key, name, min, max] of PERIOD_PARTS) {
    const value = f[key];
    if (value != null && (!Number.isInteger(value) || value < min || value > max)) throw fieldError(name, "Enter a whole number.");
  }
}

export function componentUsageWhere(f: UsageFilter | null | undefined): Prisma.ComponentUsageWhereInput[] {
  if (!f) return [];
  checkPeriodParts(f);
  const where: Prisma.ComponentUsageWhereInput[] = [];
  if (f.resourceUuid) where.push({ resourceId: uuidOf("resource_uuid", f.resourceUuid) });
  if (f.offeringUuid) where.push({ resource: { offeringId: uuidOf("offering_uuid", f.offeringUuid) } });
  if (f.projectUuid) where.push({ resource: { projectId: uuidOf("project_uuid", f.projectUuid) } });
  if (f.customerUuid) where.push({ resource: { project: { customerId: uuidOf("customer_uuid", f.customerUuid) } } });
  if (f.type) where.push({ component: { type: f.type } });
  if (f.billingPeriod) where.push({ billingPeriod: f.billingPeriod });
  if (f.billingPeriodYear != null) {
    const month = f.billingPeriodMonth;
    const start = utcDate(f.billingPeriodYear, month ? month - 1 : 0);
    const end = utcDate(f.billingPeriodYear + (month ? 0 : 1), month ? month : 0);
    where.push({ billingPeriod: { gte: start, lt: end } });
  } else if (f.billingPeriodMonth != null) {
    where.push({ billingPeriod: { in: monthsNamed(f.billingPeriodMonth) } });
  }
  if (f.dateAfter) where.push({ date: { gte: f.dateAfter } });
  if (f.dateBefore) where.push({ date: { lte: f.dateBefore } });
  return where;
}

/** The first days of month `month` across the years anyone reports usage for. */
const monthsNamed = (month: number) =>
  Array.from({ length: 101 }, (_unused, i) => utcDate(2000 + i, month - 1));

export function componentUserUsageWhere(f: UsageFilter | null | undefined): Prisma.ComponentUserUsageWhereInput[] {
  if (!f) return [];
  const { username, dateAfter, dateBefore, ...byComponentUsage } = f;
  const where: Prisma.ComponentUserUsageWhereInput[] = componentUsageWhere(byComponentUsage).map((componentUsage) => ({ componentUsage }));
  if (username != null) where.push({ username });
  if (dateAfter) where.push({ date: { gte: dateAfter } });
  if (dateBefore) where.push({ date: { lte: dateBefore } });
  return where;
}

export const COMPONENT_USAGE_ORDER = {
  BILLING_PERIOD_ASC: { billingPeriod: "asc" },
  BILLING_PERIOD_DESC: { billingPeriod: "desc" },
  USAGE_ASC: { usage: "asc" },
  USAGE_DESC: { usage: "desc" },
} as const satisfies Record<string, Prisma.ComponentUsageOrderByWithRelationInput>;
export type ComponentUsageOrder = keyof typeof COMPONENT_USAGE_ORDER;

/** Waldur's default: newest report first, then component type. */
export const componentUsageOrderBy = (order: ComponentUsageOrder[] | null | undefined) =>
  order?.length
    ? [...order.map((o) => COMPONENT_USAGE_ORDER[o]), { id: "asc" as const }]
    : [{ date: "desc" as const }, { component: { type: "asc" as const } }, { id: "asc" as const }];

export const COMPONENT_USER_USAGE_ORDER = {
  COMPONENT_USAGE__BILLING_PERIOD_ASC: { componentUsage: { billingPeriod: "asc" } },
  COMPONENT_USAGE__BILLING_PERIOD_DESC: { componentUsage: { billingPeriod: "desc" } },
  USAGE_ASC: { usage: "asc" },
  USAGE_DESC: { usage: "desc" },
  USERNAME_ASC: { username: "asc" },
  USERNAME_DESC: { username: "desc" },
} as const satisfies Record<string, Prisma.ComponentUserUsageOrderByWithRelationInput>;
export type ComponentUserUsageOrder = keyof typeof COMPONENT_USER_USAGE_ORDER;

export const componentUserUsageOrderBy = (order: ComponentUserUsageOrder[] | null | undefined) => [
  ...(order?.length ? order : (["USERNAME_ASC"] as const)).map((o) => COMPONENT_USER_USAGE_ORDER[o]),
  { created: "asc" as const },
  { id: "asc" as const },
];
