import { Access, type ScopeRef, type ScopeType, type Viewer } from "../auth/access.ts";
import { Permission, type Role } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { NotFoundError } from "../platform/errors.ts";
import { getOffering } from "./service-offerings.ts";
import { getCustomer, getProject } from "./service-organisations.ts";
import { storedRole } from "./service-roles.ts";
import { findMany } from "../platform/reads/sql/find.ts";

export interface RoleHeld {
  role: Role;
  scopeType: ScopeType;
  scopeId: string;
  expirationTime: Date | null;
}

const PERMISSIONS = Object.values(Permission);

/**
 * The access of `user` as the viewer may read it: their own, or anyone's for staff and support (who read every
 * user and role). Null for anyone else, whose roles and permissions are then empty.
 */
function accessOf(ctx: Context, user: Viewer): Access | null {
  if (!ctx.viewer) return null;
  if (ctx.viewer.id === user.id) return ctx.access;
  if (!ctx.access.readsAll) return null;
  return ctx.memo(`access-of:${user.id}`, () => new Access(ctx.db, user, ctx.now));
}

/** The user's active, unexpired role grants, oldest first. */
export async function rolesHeld(ctx: Context, user: Viewer): Promise<RoleHeld[]> {
  if (!accessOf(ctx, user)) return [];
  const now = ctx.now();
  const grants = await findMany(ctx.db, "roleGrant", {
    where: { userId: user.id, isActive: true, OR: [{ expirationTime: null }, { expirationTime: { gt: now } }] },
    select: { role: true, scopeType: true, scopeId: true, expirationTime: true },
    orderBy: [{ created: "asc" }, { id: "asc" }],
  });
  return grants.map((grant) => ({ ...grant, role: storedRole(grant.role) }));
}

/**
 * Customers on whose provider side the user holds a role: a customer role on a customer that is a service
 * provider, or a role on one of a customer's offerings. Null when the viewer may not read the user's roles.
 */
export async function providerCustomersWhere(ctx: Context, user: Viewer): Promise<Prisma.CustomerWhereInput | null> {
  const access = accessOf(ctx, user);
  if (!access) return null;
  const [customerIds, offeringIds] = await Promise.all([access.scopeIds("CUSTOMER"), access.scopeIds("OFFERING")]);
  return {
    OR: [
      { id: { in: customerIds }, serviceProvider: { isNot: null } },
      { offerings: { some: { id: { in: offeringIds } } } },
    ],
  };
}

/** An object and the objects above it, among those the viewer may see. */
const SCOPE_CHAINS: Record<ScopeType, (ctx: Context, uuid: string) => Promise<ScopeRef[]>> = {
  CUSTOMER: async (ctx, uuid) => {
    const customer = await getCustomer(ctx, uuid, { select: { id: true } });
    return [{ type: "CUSTOMER", id: customer.id }];
  },
  PROJECT: async (ctx, uuid) => {
    const project = await getProject(ctx, uuid, { select: { id: true, customerId: true } });
    return [{ type: "PROJECT", id: project.id }, { type: "CUSTOMER", id: project.customerId }];
  },
  OFFERING: async (ctx, uuid) => {
    const offering = await getOffering(ctx, uuid, { select: { id: true, customerId: true } });
    return [{ type: "OFFERING", id: offering.id }, { type: "CUSTOMER", id: offering.customerId }];
  },
};

/**
 * The permissions the user holds on one object, through a role on it or on an object above it (staff hold all).
 * Empty when the object does not exist, the viewer may not see it, or the viewer may not read the user's roles.
 */
export async function permissionsOn(ctx: Context, user: Viewer, scope: { type: ScopeType; uuid: string }): Promise<Permission[]> {
  const access = accessOf(ctx, user);
  if (!access) return [];
  let chain: ScopeRef[];
  try {
    chain = await SCOPE_CHAINS[scope.type](ctx, scope.uuid);
  } catch (error) {
    if (error instanceof NotFoundError) return [];
    throw error;
  }
  const held = await Promise.all(PERMISSIONS.map((permission) => access.can(permission, chain)));
  return PERMISSIONS.filter((_, index) => held[index]);
}
