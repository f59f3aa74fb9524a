import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/** Customers on which the viewer holds a role, or in one of whose projects or offerings they do. */
export async function visibleCustomers(ctx: Context): Promise<Prisma.CustomerWhereInput> {
  if (ctx.access.readsAll) return {};
  ctx.requireViewer();
  const [customers, projects, offerings] = await Promise.all([
    ctx.access.scopeIds("CUSTOMER"),
    ctx.access.scopeIds("PROJECT"),
    ctx.access.scopeIds("OFFERING"),
  ]);
  return {
    OR: [
      { id: { in: customers } },
      { projects: { some: { id: { in: projects } } } },
      { offerings: { some: { id: { in: offerings } } } },
    ],
  };
}

/** Projects on which the viewer holds a role, or whose customer they hold a role on. */
export async function visibleProjects(ctx: Context): Promise<Prisma.ProjectWhereInput> {
  if (ctx.access.readsAll) return {};
  ctx.requireViewer();
  const [customers, projects] = await Promise.all([ctx.access.scopeIds("CUSTOMER"), ctx.access.scopeIds("PROJECT")]);
  return { OR: [{ id: { in: projects } }, { customerId: { in: customers } }] };
}

/** The provider's own offerings (customer or offering roles) and every active offering of the catalogue. */
export async function visibleOfferings(ctx: Context): Promise<Prisma.OfferingWhereInput> {
  if (ctx.access.readsAll) return {};
  ctx.requireViewer();
  const [customers, offerings] = await Promise.all([ctx.access.scopeIds("CUSTOMER"), ctx.access.scopeIds("OFFERING")]);
  return { OR: [{ state: "ACTIVE" }, { customerId: { in: customers } }, { id: { in: offerings } }] };
}

/** Users see themselves and the people they share a customer or project with. */
export async function visibleUsers(ctx: Context): Promise<Prisma.UserWhereInput> {
  if (ctx.access.readsAll) return {};
  const viewer = ctx.requireViewer();
  const [customers, projects] = await Promise.all([ctx.access.scopeIds("CUSTOMER"), ctx.access.scopeIds("PROJECT")]);
  const sharedScopes = [...customers, ...projects];
  return {
    OR: [
      { id: viewer.id },
      ...(sharedScopes.length ? [{ roles: { some: { isActive: true, scopeId: { in: sharedScopes } } } }] : []),
    ],
  };
}
