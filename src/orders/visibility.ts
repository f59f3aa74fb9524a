import { allocationProviderScopes, type ScopeRef } from "../auth/access.ts";
import { type Permission, Permission as P, ROLE_PERMISSIONS, ROLES } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";

export const rolesWith = (permission: Permission) => ROLES.filter((role) => ROLE_PERMISSIONS[role].includes(permission));

/**
 * Orders the viewer may see (Waldur §6.2): staff and support all; others those where they hold LIST_ORDERS on
 * the project or its customer (consumer side) or on the offering or its customer (provider side).
 */
export async function visibleOrders(ctx: Context): Promise<Prisma.OrderWhereInput> {
  if (ctx.access.readsAll) return {};
  ctx.requireViewer();
  const listers = rolesWith(P.LIST_ORDERS);
  const [customers, projects, offerings] = await Promise.all([
    ctx.access.scopeIds("CUSTOMER", listers),
    ctx.access.scopeIds("PROJECT", listers),
    ctx.access.scopeIds("OFFERING", listers),
  ]);
  return {
    OR: [
      { projectId: { in: projects } },
      { project: { customerId: { in: customers } } },
      { offeringId: { in: offerings } },
      { offering: { customerId: { in: customers } } },
    ],
  };
}

export const consumerScopes = (o: { projectId: string; project: { customerId: string } }): ScopeRef[] => [
  { type: "PROJECT", id: o.projectId },
  { type: "CUSTOMER", id: o.project.customerId },
];

export { allocationProviderScopes as providerScopes } from "../auth/access.ts";

type OrderScopesSource = { projectId: string; offeringId: string; project: { customerId: string }; offering: { customerId: string } };

/** The scopes whose permission an action of `side` needs. */
export const scopesFor = (side: "consumer" | "provider", order: OrderScopesSource) =>
  side === "consumer" ? consumerScopes(order) : allocationProviderScopes(order);
