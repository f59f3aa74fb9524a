import { Permission, ROLE_PERMISSIONS, ROLE_SCOPE, ROLES } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { unauthenticated } from "../platform/errors.ts";

/** Customer roles that may manage their service provider's maintenance (owners and managers). */
const MANAGING_ROLES = ROLES.filter(
  (role) => ROLE_SCOPE[role] === "CUSTOMER" && ROLE_PERMISSIONS[role].includes(Permission.MANAGE_MAINTENANCE),
);

/** Customers whose service provider's maintenance the viewer manages; null means every one (staff). */
export async function managedCustomerIds(ctx: Context): Promise<string[] | null> {
  ctx.requireViewer();
  if (ctx.access.isStaff) return null;
  return ctx.access.scopeIds("CUSTOMER", MANAGING_ROLES);
}

/**
 * Waldur §4.2: staff and the service provider's owners and managers see its announcements; support reads
 * everything (and changes nothing, as everywhere else); everyone else sees none.
 */
export async function visibleMaintenance(ctx: Context): Promise<Prisma.MaintenanceAnnouncementWhereInput> {
  ctx.requireViewer();
  if (ctx.access.readsAll) return {};
  const customers = (await managedCustomerIds(ctx)) ?? [];
  return { serviceProvider: { customerId: { in: customers } } };
}

export const canManageProvider = (ctx: Context, customerId: string) =>
  ctx.access.can(Permission.MANAGE_MAINTENANCE, [{ type: "CUSTOMER", id: customerId }]);

export const requireManager = (ctx: Context, customerId: string) =>
  ctx.access.require(Permission.MANAGE_MAINTENANCE, [{ type: "CUSTOMER", id: customerId }]);

/**
 * Public reads need no token, but as DRF authenticates before AllowAny, a token that is sent must be valid.
 */
export function rejectBadToken(ctx: Context) {
  if (ctx.viewer) return;
  try {
    ctx.requireViewer();
  } catch (error) {
    if ((error as Error).message !== unauthenticated().message) throw error;
  }
}
