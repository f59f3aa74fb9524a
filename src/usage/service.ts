import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Connection, Page } from "../platform/paginate.ts";
import { visibleOne } from "../directory/lookup.ts";
import { paginate } from "../platform/paginate.ts";
import {
  type ComponentUsageOrder,
  componentUsageOrderBy,
  componentUsageWhere,
  type ComponentUserUsageOrder,
  componentUserUsageOrderBy,
  componentUserUsageWhere,
  type UsageFilter,
} from "./filters.ts";
import { visibleComponentUsages, visibleComponentUserUsages } from "./visibility.ts";

/** The selections GraphQL asks for (plugin-prisma's queryFromInfo); services return rows shaped by them. */
export type ComponentUsageQuery = { select?: Prisma.ComponentUsageSelect; include?: Prisma.ComponentUsageInclude };
export type ComponentUserUsageQuery = { select?: Prisma.ComponentUserUsageSelect; include?: Prisma.ComponentUserUsageInclude };

export async function listComponentUsages(
  ctx: Context,
  args: { filter?: UsageFilter | null; orderBy?: ComponentUsageOrder[] | null; page: Page },
  query: ComponentUsageQuery = {},
): Promise<Connection<unknown>> {
  const where = { AND: [await visibleComponentUsages(ctx), ...componentUsageWhere(args.filter)] };
  return paginate(ctx.db.componentUsage, { where, orderBy: componentUsageOrderBy(args.orderBy), page: args.page, query });
}

export async function getComponentUsage(ctx: Context, uuid: string, query: ComponentUsageQuery = {}) {
  const visible = await visibleComponentUsages(ctx);
  return visibleOne(uuid, (id) => ctx.db.componentUsage.findFirst({ ...query, where: { AND: [{ id }, visible] } }));
}

export async function listComponentUserUsages(
  ctx: Context,
  args: { filter?: UsageFilter | null; orderBy?: ComponentUserUsageOrder[] | null; page: Page },
  query: ComponentUserUsageQuery = {},
): Promise<Connection<unknown>> {
  const where = { AND: [await visibleComponentUserUsages(ctx), ...componentUserUsageWhere(args.filter)] };
  return paginate(ctx.db.componentUserUsage, { where, orderBy: componentUserUsageOrderBy(args.orderBy), page: args.page, query });
}

export async function getComponentUserUsage(ctx: Context, uuid: string, query: ComponentUserUsageQuery = {}) {
  const visible = await visibleComponentUserUsages(ctx);
  return visibleOne(uuid, (id) => ctx.db.componentUserUsage.findFirst({ ...query, where: { AND: [{ id }, visible] } }));
}
