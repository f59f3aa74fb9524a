import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { visibleResources } from "../resources/visibility.ts";

/** Usages of resources the viewer may see, from either side (Waldur's GenericRoleFilter). */
export async function visibleComponentUsages(ctx: Context): Promise<Prisma.ComponentUsageWhereInput> {
  if (ctx.access.readsAll) return {};
  return { resource: await visibleResources(ctx) };
}

export async function visibleComponentUserUsages(ctx: Context): Promise<Prisma.ComponentUserUsageWhereInput> {
  if (ctx.access.readsAll) return {};
  return { componentUsage: { resource: await visibleResources(ctx) } };
}
