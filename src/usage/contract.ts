import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { choiceFilter, defineContract, type Filter } from "../collections/contract.ts";
import { fieldError } from "../platform/errors.ts";
import { icontains } from "../platform/reads/text-match.ts";
import { utcDate } from "../platform/timestamps.ts";

/**
 * The contracts of component usages and component user usages (Waldur's ComponentUsageFilter and
 * ComponentUserUsageFilter). A user usage is narrowed through its component usage by every filter but `username`.
 */

/**
 * The stored billing periods (first days of months) of month 1–12 in any year. No Prisma filter says "month of this
 * date is m", so the filter looks them up (one grouped read of an indexed column).
 */
async function storedPeriodsOfMonth(ctx: Context, month: number): Promise<Date[]> {
  const periods = (await ctx.db.componentUsage.groupBy({ by: ["billingPeriod"] })).map((row) => row.billingPeriod);
  return periods.filter((period) => period.getUTCMonth() === month - 1);
}

/** Waldur's missing_usage_policy, derived from `recurring` (a recurring report is reused every month until changed). */
export const MISSING_USAGE_POLICIES = ["NONE", "REUSE", "ZERO"] as const;
export type MissingUsagePolicy = (typeof MISSING_USAGE_POLICIES)[number];
export const missingUsagePolicyOf = (recurring: boolean): MissingUsagePolicy => (recurring ? "REUSE" : "NONE");
const POLICY_BY_LABEL: Record<string, MissingUsagePolicy> = { none: "NONE", reuse: "REUSE", zero: "ZERO" };

const DAY_MS = 86_400_000;
const startOfUtcDay = (date: Date) => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
const endOfUtcDay = (date: Date) => new Date(startOfUtcDay(date).getTime() + DAY_MS - 1);

/** Whole numbers in [min, max]; GraphQL's Int lets anything through, and a year beyond 9999 is no date. */
function wholeNumberIn(name: string, value: number, min: number, max: number) {
  if (!Number.isInteger(value) || value < min || value > max) throw fieldError(name, "Enter a whole number.");
  return value;
}
export const BILLING_PERIOD_PARTS = [
  { arg: "billingPeriodYear", rest: "billing_period_year", min: 1, max: 9999 },
  { arg: "billingPeriodMonth", rest: "billing_period_month", min: 1, max: 12 },
] as const;
const [YEAR, MONTH] = BILLING_PERIOD_PARTS;

const NOTHING = { id: { in: [] } };

/** The filters both collections share, each narrowing a component usage; `through` lifts it to the listed object. */
function componentUsageFilters<W>(through: (where: Prisma.ComponentUsageWhereInput) => W, billingPeriodParam: string) {
  return {
    resourceUuid: {
      kind: "uuids",
      rest: { resource_uuid: "uuid", resource: { url: "providerResource" } },
      where: (ids) => through({ resourceId: { in: ids } }),
    },
    offeringUuid: { kind: "uuids", rest: { offering_uuid: "uuid" }, where: (ids) => through({ resource: { offeringId: { in: ids } } }) },
    projectUuid: { kind: "uuids", rest: { project_uuid: "uuid" }, where: (ids) => through({ resource: { projectId: { in: ids } } }) },
    customerUuid: {
      kind: "uuids",
      rest: { customer_uuid: "uuid" },
      description: "The consumer organisation",
      where: (ids) => through({ resource: { project: { customerId: { in: ids } } } }),
    },
    type: { kind: "text", rest: "type", description: "Component type, exact", where: (type) => through({ component: { type } }) },
    billingPeriod: {
      kind: "date",
      rest: billingPeriodParam,
      description: "The first day of the month",
      where: (date) => through({ billingPeriod: startOfUtcDay(date) }),
    },
    billingPeriodYear: {
      kind: "int",
      rest: YEAR.rest,
      where: (value) => {
        const year = wholeNumberIn(YEAR.arg, value, YEAR.min, YEAR.max);
        return through({ billingPeriod: { gte: utcDate(year, 0, 1), lte: utcDate(year, 11, 31) } });
      },
    },
    billingPeriodMonth: {
      kind: "int",
      rest: MONTH.rest,
      description: "1-12, in any year",
      where: (value) => {
        const month = wholeNumberIn(MONTH.arg, value, MONTH.min, MONTH.max);
        return async (ctx) => through({ billingPeriod: { in: await storedPeriodsOfMonth(ctx, month) } });
      },
    },
    dateAfter: {
      kind: "date",
      rest: "date_after",
      description: "Reported on or after this day (UTC)",
      where: (date) => through({ date: { gte: startOfUtcDay(date) } }),
    },
    dateBefore: {
      kind: "date",
      rest: "date_before",
      description: "Reported on or before this day (UTC)",
      where: (date) => through({ date: { lte: endOfUtcDay(date) } }),
    },
  } as const satisfies Record<string, Filter<W, Context>>;
}

export const COMPONENT_USAGE_CONTRACT = defineContract<Prisma.ComponentUsageWhereInput, Prisma.ComponentUsageOrderByWithRelationInput, Context>()({
  filters: {
    ...componentUsageFilters((where: Prisma.ComponentUsageWhereInput) => where, "billing_period"),
    missingUsagePolicy: choiceFilter({
      rest: "missing_usage_policy",
      labels: POLICY_BY_LABEL,
      enumName: "MissingUsagePolicy",
      description: "Any of these; none and reuse are the non-recurring and recurring reports, zero is never reported",
      where: (policies) => {
        const recurring = [false, true].filter((value) => policies.includes(missingUsagePolicyOf(value)));
        if (!recurring.length) return NOTHING;
        return recurring.length === 1 ? { recurring: recurring[0] } : {};
      },
    }),
  },
  orderings: {
    billing_period: (direction) => ({ billingPeriod: direction }),
    missing_usage_policy: (direction) => ({ recurring: direction }),
    usage: (direction) => ({ usage: direction }),
  },
  // Waldur's default (newest report first, then component type) is the tiebreak of every order.
  defaultOrder: [],
  tiebreak: [{ date: "desc" }, { component: { type: "asc" } }, { id: "asc" }],
});

export const COMPONENT_USER_USAGE_CONTRACT = defineContract<
  Prisma.ComponentUserUsageWhereInput,
  Prisma.ComponentUserUsageOrderByWithRelationInput,
  Context
>()({
  filters: {
    ...componentUsageFilters((componentUsage: Prisma.ComponentUsageWhereInput) => ({ componentUsage }), "component_usage__billing_period"),
    username: { kind: "text", rest: "username", description: "Contains, case-insensitive", where: (username) => ({ username: icontains(username) }) },
  },
  orderings: {
    component_usage__billing_period: (direction) => ({ componentUsage: { billingPeriod: direction } }),
    usage: (direction) => ({ usage: direction }),
    username: (direction) => ({ username: direction }),
  },
  defaultOrder: [],
  tiebreak: [{ componentUsage: { date: "desc" } }, { componentUsage: { component: { type: "asc" } } }, { username: "asc" }, { id: "asc" }],
});
