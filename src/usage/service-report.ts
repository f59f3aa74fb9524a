import { allocationProviderScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import { type BillingType, Prisma, type ResourceState } from "../generated/prisma/client.ts";
import { runWrite } from "../platform/database/lone-statement.ts";
import { fieldError, inputError, invalid, missingObject } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { maxLength } from "../platform/text.ts";
import { transact, type Tx } from "../platform/database/transaction.ts";
import { amountError, billingPeriodOf, LIMIT_WINDOWS, toDecimal } from "./amounts.ts";
import { findVisibleComponentUsage } from "./service.ts";
import { findFirst, findMany, findUnique } from "../platform/reads/sql/find.ts";

/** Waldur §8.2: usage is accepted for resources in these states, for components billed by usage or limit. */
const REPORTABLE_STATES: readonly ResourceState[] = ["OK", "UPDATING", "TERMINATING"];
const REPORTABLE_BILLING: readonly BillingType[] = ["USAGE", "LIMIT"];
const BACKFILL_DESCRIPTION = "Created for user usage backfill";

export interface UsageReport {
  type: string;
  amount: string;
  description?: string | null;
  recurring?: boolean | null;
}

export interface SetUsageInput {
  resource?: string | null;
  planPeriod?: string | null;
  usages: UsageReport[];
  /** Reports for the billing period (month) of this moment; default now. */
  date?: Date | null;
}

const missing = (field: string, value: string) => fieldError(field, `Object with uuid=${value} does not exist.`);

function validReports(usages: UsageReport[]) {
  const errors = usages.flatMap((u, i) => {
    const problem = amountError(u.amount);
    return problem ? [`Item ${i + 1}: amount: ${problem}`] : [];
  });
  if (errors.length) throw invalid({ usages: errors });
  return usages.map((u) => ({ ...u, amount: toDecimal(u.amount), description: maxLength("usages", u.description ?? "", 4096) }));
}

type Component = { id: string; type: string; limitPeriod: string | null; limitAmount: number | null };
type Report = ReturnType<typeof validReports>[number];

/** "Total amount exceeds limit": the limit covers the component's limit_period; this month's old value is replaced. */
async function checkLimits(ctx: Context, resourceId: string, period: Date, reports: Array<[Report, Component]>) {
  for (const [report, component] of reports) {
    const window = component.limitPeriod ? LIMIT_WINDOWS[component.limitPeriod] : undefined;
    if (!window || component.limitAmount == null) continue;
    const others = await ctx.db.componentUsage.aggregate({
      _sum: { usage: true },
      where: { resourceId, componentId: component.id, billingPeriod: { ...window(period), not: period } },
    });
    const total = report.amount.plus(others._sum.usage ?? 0);
    if (total.greaterThan(component.limitAmount)) {
      throw inputError(`Total amount exceeds limit. Total amount: ${total.toFixed(2)}, limit: ${component.limitAmount}.`);
    }
  }
}

/**
 * POST set_usage/: one upsert per (resource, component, billing period); a second report in a month replaces the first.
 * Returns the ids of the component usages reported, each once, in the order of the reports.
 */
export async function setUsage(ctx: Context, input: SetUsageInput): Promise<string[]> {
  const viewer = ctx.requireViewer();
  if (!input.resource && !input.planPeriod) throw inputError("Either plan_period or resource should be provided.");
  // Plan periods are not modelled: no uuid names one.
  if (!input.resource) throw missing("planPeriodUuid", input.planPeriod!);
  const resourceId = parseUuid(input.resource);
  const resource = resourceId
    ? await findUnique(ctx.db, "resource", {
        where: { id: resourceId },
        select: { id: true, state: true, offeringId: true, offering: { select: { customerId: true } } },
      })
    : null;
  if (!resource) throw missing("resourceUuid", input.resource);
  const reports = validReports(input.usages);
  if (!REPORTABLE_STATES.includes(resource.state)) throw fieldError("resourceUuid", "Resource is not in valid state.");
  const components = await findMany(ctx.db, "offeringComponent", {
    where: { offeringId: resource.offeringId, type: { in: reports.map((r) => r.type) }, billingType: { in: [...REPORTABLE_BILLING] } },
    select: { id: true, type: true, limitPeriod: true, limitAmount: true },
  });
  const byType = new Map(components.map((c) => [c.type, c]));
  const invalidTypes = [...new Set(reports.map((r) => r.type).filter((type) => !byType.has(type)))];
  if (invalidTypes.length) throw inputError(`These components are invalid: ${invalidTypes.join(", ")}.`);
  const period = billingPeriodOf(input.date ?? ctx.now());
  const paired = reports.map((r) => [r, byType.get(r.type)!] as [Report, Component]);
  await checkLimits(ctx, resource.id, period, paired);
  await ctx.access.require(Permission.SET_RESOURCE_USAGE, allocationProviderScopes(resource));
  const now = ctx.now();
  // A component reported twice takes its last report, as a second report in the month replaces the first.
  const latest = [...new Map(paired.map(([report, component]) => [component.id, { report, component }])).values()];
  const reported = Object.fromEntries(latest.map(({ report, component }) => [component.type, report.amount.toNumber()]));
  // One statement, so it commits alone: the usages upserted and the resource's current usages merged into, not read
  // and rewritten (concurrent reports for other components must not be lost).
  const written = await transact(
    ctx,
    (db) => runWrite<{ id: string; componentId: string }>(db, Prisma.sql`
      WITH upserted AS (
        INSERT INTO component_usages (id, resource_id, component_id, billing_period, usage, description, recurring, date, modified_by_id, created, modified)
        SELECT gen_random_uuid(), ${resource.id}::uuid, r.component_id, ${period}::date, r.usage, r.description, r.recurring, ${now}, ${viewer.id}::uuid, ${now}, ${now}
        FROM unnest(${latest.map((l) => l.component.id)}::uuid[], ${latest.map((l) => l.report.amount.toString())}::numeric[],
                    ${latest.map((l) => l.report.description)}::text[], ${latest.map((l) => l.report.recurring ?? false)}::boolean[])
          AS r(component_id, usage, description, recurring)
        ON CONFLICT (resource_id, component_id, billing_period) DO UPDATE SET usage = EXCLUDED.usage, description = EXCLUDED.description,
          recurring = EXCLUDED.recurring, date = EXCLUDED.date, modified_by_id = EXCLUDED.modified_by_id, modified = EXCLUDED.modified
        RETURNING id, component_id
      ), merged AS (
        UPDATE resources SET current_usages = current_usages || ${JSON.stringify(reported)}::jsonb, modified = ${now} WHERE id = ${resource.id}::uuid
      )
      SELECT id::text, component_id::text AS "componentId" FROM upserted`, ctx.writes),
    { oneStatement: true },
  );
  const idOf = new Map(written.map((row) => [row.componentId, row.id]));
  return [...new Set(paired.map(([, component]) => idOf.get(component.id)!))];
}

export interface UserUsageReport {
  username: string;
  usage: string;
  /** The offering user this usage belongs to. */
  user?: string | null;
  /** Reports into the component usage of this moment's month (created with usage 0 when missing). */
  date?: Date | null;
}

type UsageCore = { id: string; resourceId: string; componentId: string; billingPeriod: Date; resource: { offeringId: string; offering: { customerId: string } } };
const USAGE_CORE = {
  id: true,
  resourceId: true,
  componentId: true,
  billingPeriod: true,
  resource: { select: { offeringId: true, offering: { select: { customerId: true } } } },
} as const;

async function validUserReports(ctx: Context, offeringId: string, usages: UserUsageReport[]) {
  if (!usages.length) throw fieldError("usages", "This list may not be empty.");
  const errors = usages.flatMap((u, i) => {
    const problems = [
      !u.username?.trim() ? "username: This field may not be blank." : u.username.length > 100 ? "username: Ensure this field has no more than 100 characters." : null,
      amountError(u.usage) ? `usage: ${amountError(u.usage)}` : null,
    ].filter(Boolean);
    return problems.map((p) => `Item ${i + 1}: ${p}`);
  });
  if (errors.length) throw invalid({ usages: errors });
  return Promise.all(
    usages.map(async (u) => {
      const userId = u.user ? parseUuid(u.user) : null;
      const offeringUser = userId ? await findFirst(ctx.db, "offeringUser", { where: { id: userId, offeringId }, select: { id: true } }) : null;
      if (u.user && !offeringUser) throw missingObject("offeringUserUuid");
      return { username: u.username, usage: toDecimal(u.usage), offeringUserId: offeringUser?.id ?? null, date: u.date ?? null };
    }),
  );
}

/** The component usage a dated report belongs to: that month's, created empty when there is none yet. */
async function usageForMonth(tx: Tx, base: UsageCore, date: Date, now: Date) {
  const period = billingPeriodOf(date);
  if (period.getTime() === base.billingPeriod.getTime()) return base.id;
  const key = { resourceId: base.resourceId, componentId: base.componentId, billingPeriod: period };
  const usage = await tx.componentUsage.upsert({
    where: { resourceId_componentId_billingPeriod: key },
    create: { ...key, usage: 0, description: BACKFILL_DESCRIPTION, date, created: now },
    update: {},
    select: { id: true },
  });
  return usage.id;
}

/**
 * set_user_usage/ and set_user_usages/: upserts per (component usage, username), all or nothing. A component
 * usage still at 0 takes the sum of its user usages (Waldur fills the total from per-user reports). Returns the ids of
 * the user usages reported, each once, in the order of the reports.
 */
export async function setUserUsages(ctx: Context, componentUsageUuid: string, usages: UserUsageReport[]): Promise<string[]> {
  ctx.requireViewer();
  const base = await findVisibleComponentUsage(ctx, componentUsageUuid, (where) => findFirst(ctx.db, "componentUsage", { select: USAGE_CORE, where }));
  await ctx.access.require(Permission.SET_RESOURCE_USAGE, allocationProviderScopes(base.resource));
  const reports = await validUserReports(ctx, base.resource.offeringId, usages);
  const now = ctx.now();
  return transact(ctx, async (tx) => {
    const touched = new Set<string>();
    const ids: string[] = [];
    for (const report of reports) {
      const componentUsageId = report.date ? await usageForMonth(tx, base, report.date, now) : base.id;
      touched.add(componentUsageId);
      const values = { usage: report.usage, offeringUserId: report.offeringUserId, date: report.date ?? now };
      const userUsage = await tx.componentUserUsage.upsert({
        where: { componentUsageId_username: { componentUsageId, username: report.username } },
        create: { ...values, componentUsageId, username: report.username, created: now },
        update: values,
        select: { id: true },
      });
      ids.push(userUsage.id);
    }
    for (const id of touched) {
      const { _sum } = await tx.componentUserUsage.aggregate({ _sum: { usage: true }, where: { componentUsageId: id } });
      await tx.componentUsage.updateMany({ where: { id, usage: 0 }, data: { usage: _sum.usage ?? 0 } });
    }
    return [...new Set(ids)];
  });
}
