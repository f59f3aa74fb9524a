import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { FilterValues, OrderValue } from "../platform/collection-contract.ts";
import type { Connection, Page } from "../platform/paginate.ts";
import { visibleOne } from "../directory/lookup.ts";
import { paginate } from "../platform/paginate.ts";
import {
  COMPONENT_USAGE_CONTRACT,
  COMPONENT_USER_USAGE_CONTRACT,
  componentUsageContract,
  componentUserUsageContract,
  type PeriodsOfMonth,
} from "./contract.ts";
import { visibleComponentUsages, visibleComponentUserUsages } from "./visibility.ts";

/** The selections GraphQL asks for (plugin-prisma's queryFromInfo); services return rows shaped by them. */
export type ComponentUsageQuery = { select?: Prisma.ComponentUsageSelect; include?: Prisma.ComponentUsageInclude };
export type ComponentUserUsageQuery = { select?: Prisma.ComponentUserUsageSelect; include?: Prisma.ComponentUserUsageInclude };

type ListArgs<C extends typeof COMPONENT_USAGE_CONTRACT | typeof COMPONENT_USER_USAGE_CONTRACT> = {
  filter?: FilterValues<C> | null;
  orderBy?: Array<OrderValue<C>> | null;
  page: Page;
};

/** The stored billing periods, looked up only when a month filter needs them (one grouped read of an indexed column). */
async function storedPeriodsOfMonth(ctx: Context, month: number | null | undefined): Promise<PeriodsOfMonth> {
  if (month == null) return () => [];
  const periods = (await ctx.db.componentUsage.groupBy({ by: ["billingPeriod"] })).map((row) => row.billingPeriod);
  return (wanted) => periods.filter((period) => period.getUTCMonth() === wanted - 1);
}

export async function listComponentUsages(ctx: Context, args: ListArgs<typeof COMPONENT_USAGE_CONTRACT>, query: ComponentUsageQuery = {}): Promise<Connection<unknown>> {
  const contract = componentUsageContract(await storedPeriodsOfMonth(ctx, args.filter?.billingPeriodMonth));
  const where = { AND: [await visibleComponentUsages(ctx), ...contract.where(args.filter)] };
  return paginate(ctx.db.componentUsage, { where, orderBy: contract.orderBy(args.orderBy), page: args.page, query });
}

export async function getComponentUsage(ctx: Context, uuid: string, query: ComponentUsageQuery = {}) {
  const visible = await visibleComponentUsages(ctx);
  return visibleOne(uuid, (id) => ctx.db.componentUsage.findFirst({ ...query, where: { AND: [{ id }, visible] } }));
}

export async function listComponentUserUsages(
  ctx: Context,
  args: ListArgs<typeof COMPONENT_USER_USAGE_CONTRACT>,
  query: ComponentUserUsageQuery = {},
): Promise<Connection<unknown>> {
  const contract = componentUserUsageContract(await storedPeriodsOfMonth(ctx, args.filter?.billingPeriodMonth));
  const where = { AND: [await visibleComponentUserUsages(ctx), ...contract.where(args.filter)] };
  return paginate(ctx.db.componentUserUsage, { where, orderBy: contract.orderBy(args.orderBy), page: args.page, query });
}

export async function getComponentUserUsage(ctx: Context, uuid: string, query: ComponentUserUsageQuery = {}) {
  const visible = await visibleComponentUserUsages(ctx);
  return visibleOne(uuid, (id) => ctx.db.componentUserUsage.findFirst({ ...query, where: { AND: [{ id }, visible] } }));
}
