import type { Context } from "../context.ts";
import { idSet } from "../platform/ids.ts";
import type { Prisma, Resource } from "../generated/prisma/client.ts";
import type { FilterValues, OrderValue } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { visibleOne } from "../directory/lookup.ts";
import { RESOURCE_CONTRACT } from "./contract.ts";
import { providerResources, visibleResources } from "./visibility.ts";
import { count, findFirst, findMany, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

/** The selection GraphQL asks for (plugin-prisma's queryFromInfo); services return rows shaped by it. */
export type ResourceQuery = { select?: Prisma.ResourceSelect; include?: Prisma.ResourceInclude };

export type ResourceFilterValues = FilterValues<typeof RESOURCE_CONTRACT>;
export type ResourceOrderValue = OrderValue<typeof RESOURCE_CONTRACT>;

export type ResourceView = "PROVIDER" | "ANY";
const VIEWS: Record<ResourceView, (ctx: Context) => Promise<Prisma.ResourceWhereInput>> = {
  PROVIDER: providerResources,
  ANY: visibleResources,
};

export async function listResources(
  ctx: Context,
  args: ListRequest<typeof RESOURCE_CONTRACT> & { view: ResourceView },
  query: ResourceQuery = {},
): Promise<Connection<Resource>> {
  const visible = await VIEWS[args.view](ctx);
  return listPage(ctx.db, "resource", RESOURCE_CONTRACT, { visible, request: args, query }, { db: ctx.db, now: ctx.now(), within: visible });
}

export async function getResource(ctx: Context, view: ResourceView, uuid: string, query: ResourceQuery = {}) {
  const visible = await VIEWS[view](ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "resource", { ...query, where: { AND: [{ id }, visible] } }));
}

/** Which of `ids` the viewer may see as resources (getResource's rule for the "ANY" view). */
export const visibleResourceIds = async (ctx: Context, ids: string[]) =>
  idSet(await findMany(ctx.db, "resource", { where: { AND: [{ id: { in: ids } }, await VIEWS.ANY(ctx)] }, select: { id: true } }));

/**
 * Waldur's `details/`: the backend object behind the resource. Only marketplace resources can be scopes here, so
 * a resource with a scope answers with that resource, and one without has nothing to show (null; REST: an empty 404).
 */
export async function resourceDetails(ctx: Context, uuid: string, query: ResourceQuery = {}) {
  const resource = await getResource(ctx, "PROVIDER", uuid, { select: { scopeId: true } });
  if (!resource.scopeId) return null;
  return findUniqueOrThrow(ctx.db, "resource", { ...query, where: { id: resource.scopeId } });
}

/** A subscriber hears of a change when it may see the resource (either side); resources are never deleted. */
export async function canSeeResourceChange(ctx: Context, change: { resourceId: string }) {
  const where = { AND: [{ id: change.resourceId }, await visibleResources(ctx)] };
  return (await count(ctx.db, "resource", where)) > 0;
}
