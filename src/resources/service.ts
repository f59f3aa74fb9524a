import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Connection, Page } from "../platform/paginate.ts";
import { visibleOne } from "../directory/lookup.ts";
import { notFound } from "../platform/errors.ts";
import { paginate } from "../platform/paginate.ts";
import { type ResourceFilter, type ResourceOrder, resourceOrderBy, resourceWhere } from "./filters.ts";
import { providerResources, visibleResources } from "./visibility.ts";

/** The selection GraphQL asks for (plugin-prisma's queryFromInfo); services return rows shaped by it. */
export type ResourceQuery = { select?: Prisma.ResourceSelect; include?: Prisma.ResourceInclude };

export type ResourceView = "PROVIDER" | "ANY";
const VIEWS: Record<ResourceView, (ctx: Context) => Promise<Prisma.ResourceWhereInput>> = {
  PROVIDER: providerResources,
  ANY: visibleResources,
};

export async function listResources(
  ctx: Context,
  args: { view: ResourceView; filter?: ResourceFilter | null; orderBy?: ResourceOrder[] | null; page: Page },
  query: ResourceQuery = {},
): Promise<Connection<unknown>> {
  const where = { AND: [await VIEWS[args.view](ctx), ...resourceWhere(args.filter)] };
  return paginate(ctx.db.resource, { where, orderBy: resourceOrderBy(args.orderBy), page: args.page, query });
}

export async function getResource(ctx: Context, view: ResourceView, uuid: string, query: ResourceQuery = {}) {
  const visible = await VIEWS[view](ctx);
  return visibleOne(uuid, (id) => ctx.db.resource.findFirst({ ...query, where: { AND: [{ id }, visible] } }));
}

/**
 * Waldur's `details/`: the backend object behind the resource. Only marketplace resources can be scopes here,
 * so a resource without a scope is 404 and one with a scope answers with that resource.
 */
export async function resourceDetails(ctx: Context, uuid: string, query: ResourceQuery = {}) {
  const resource = await getResource(ctx, "PROVIDER", uuid, { select: { scopeId: true } });
  if (!resource.scopeId) throw notFound();
  return ctx.db.resource.findUniqueOrThrow({ ...query, where: { id: resource.scopeId } });
}

/** A subscriber hears of a change when it may see the resource (either side); resources are never deleted. */
export async function canSeeResourceChange(ctx: Context, change: { resourceId: string }) {
  const where = { AND: [{ id: change.resourceId }, await visibleResources(ctx)] };
  return (await ctx.db.resource.count({ where })) > 0;
}
