import type { Context } from "../context.ts";
import type { ComponentUsage, ComponentUserUsage, Prisma } from "../generated/prisma/client.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { visibleOne } from "../directory/lookup.ts";
import { COMPONENT_USAGE_CONTRACT, COMPONENT_USER_USAGE_CONTRACT } from "./contract.ts";
import { visibleComponentUsages, visibleComponentUserUsages } from "./visibility.ts";
import { findFirst } from "../platform/reads/sql/find.ts";

/** The selections GraphQL asks for (plugin-prisma's queryFromInfo); services return rows shaped by them. */
export type ComponentUsageQuery = { select?: Prisma.ComponentUsageSelect; include?: Prisma.ComponentUsageInclude };
export type ComponentUserUsageQuery = { select?: Prisma.ComponentUserUsageSelect; include?: Prisma.ComponentUserUsageInclude };

export async function listComponentUsages(ctx: Context, args: ListRequest<typeof COMPONENT_USAGE_CONTRACT>, query: ComponentUsageQuery = {}): Promise<Connection<ComponentUsage>> {
  return listPage(ctx.db, "componentUsage", COMPONENT_USAGE_CONTRACT, { visible: await visibleComponentUsages(ctx), request: args, query }, ctx);
}

/** The component usage `uuid`, read by `find` among those the viewer may see (404 otherwise). */
export async function findVisibleComponentUsage<T>(ctx: Context, uuid: string, find: (where: Prisma.ComponentUsageWhereInput) => Promise<T | null>) {
  const visible = await visibleComponentUsages(ctx);
  return visibleOne(uuid, (id) => find({ AND: [{ id }, visible] }));
}

export async function getComponentUsage(ctx: Context, uuid: string, query: ComponentUsageQuery = {}) {
  return findVisibleComponentUsage(ctx, uuid, (where) => findFirst(ctx.db, "componentUsage", { ...query, where }));
}

export async function listComponentUserUsages(
  ctx: Context,
  args: ListRequest<typeof COMPONENT_USER_USAGE_CONTRACT>,
  query: ComponentUserUsageQuery = {},
): Promise<Connection<ComponentUserUsage>> {
  return listPage(ctx.db, "componentUserUsage", COMPONENT_USER_USAGE_CONTRACT, { visible: await visibleComponentUserUsages(ctx), request: args, query }, ctx);
}

export async function getComponentUserUsage(ctx: Context, uuid: string, query: ComponentUserUsageQuery = {}) {
  const visible = await visibleComponentUserUsages(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "componentUserUsage", { ...query, where: { AND: [{ id }, visible] } }));
}
