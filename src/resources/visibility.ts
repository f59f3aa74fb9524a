import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/**
 * The provider's view (Waldur's filter_for_offering_customer): resources of offerings whose customer the viewer
 * holds a role on, or of offerings they manage. Staff and support see all.
 */
export async function providerResources(ctx: Context): Promise<Prisma.ResourceWhereInput> {
  if (ctx.access.readsAll) return {};
  ctx.requireViewer();
  const [customers, offerings] = await Promise.all([ctx.access.scopeIds("CUSTOMER"), ctx.access.scopeIds("OFFERING")]);
  return { OR: [{ offering: { customerId: { in: customers } } }, { offeringId: { in: offerings } }] };
}

/** Either side: the provider's view plus resources of projects (or their customers) the viewer holds a role on. */
export async function visibleResources(ctx: Context): Promise<Prisma.ResourceWhereInput> {
  if (ctx.access.readsAll) return {};
  const [provider, customers, projects] = await Promise.all([
    providerResources(ctx),
    ctx.access.scopeIds("CUSTOMER"),
    ctx.access.scopeIds("PROJECT"),
  ]);
  return { OR: [provider, { projectId: { in: projects } }, { project: { customerId: { in: customers } } }] };
}
