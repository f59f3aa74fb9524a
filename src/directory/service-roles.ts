import type { ScopeRef, ScopeType } from "../auth/access.ts";
import { isRole, Permission, ROLE_SCOPE, type Role } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import { type EventSpec, recordEvent } from "../events/record.ts";
import { fieldError, inputError, notFound } from "../platform/errors.ts";
import { toHex } from "../platform/ids.ts";
import { transact } from "../platform/database/transaction.ts";
import { referenced } from "./lookup.ts";
import { getOffering } from "./service-offerings.ts";
import { getCustomer, getProject } from "./service-organisations.ts";
import { findFirst, findUnique } from "../platform/reads/sql/find.ts";

interface ScopeObject {
  id: string;
  name: string;
  /** The object and the objects above it, for permission checks. */
  chain: ScopeRef[];
}

const SCOPES: Record<ScopeType, { load(ctx: Context, uuid: string): Promise<ScopeObject>; manage: Permission }> = {
  CUSTOMER: {
    manage: Permission.MANAGE_CUSTOMER_ROLES,
    load: async (ctx, uuid) => {
      const c = await getCustomer(ctx, uuid, { select: { id: true, name: true } });
      return { id: c.id, name: c.name, chain: [{ type: "CUSTOMER", id: c.id }] };
    },
  },
  PROJECT: {
    manage: Permission.MANAGE_PROJECT_ROLES,
    load: async (ctx, uuid) => {
      const p = await getProject(ctx, uuid, { select: { id: true, name: true, customerId: true } });
      return { id: p.id, name: p.name, chain: [{ type: "PROJECT", id: p.id }, { type: "CUSTOMER", id: p.customerId }] };
    },
  },
  OFFERING: {
    manage: Permission.MANAGE_OFFERING_ROLES,
    load: async (ctx, uuid) => {
      const o = await getOffering(ctx, uuid, { select: { id: true, name: true, customerId: true } });
      return { id: o.id, name: o.name, chain: [{ type: "OFFERING", id: o.id }, { type: "CUSTOMER", id: o.customerId }] };
    },
  },
};

export interface RoleInput {
  scopeType: ScopeType;
  scopeUuid: string;
  userUuid: string;
  role: Role;
  expirationTime?: Date | null;
}

async function prepare(ctx: Context, input: RoleInput) {
  ctx.requireViewer();
  const scope = await SCOPES[input.scopeType].load(ctx, input.scopeUuid);
  await ctx.access.require(SCOPES[input.scopeType].manage, scope.chain);
  if (ROLE_SCOPE[input.role] !== input.scopeType) {
    throw fieldError("role", `"${input.role}" is not a valid role for this object.`);
  }
  const user = await referenced("userUuid", input.userUuid, (id) =>
    findUnique(ctx.db, "user", { where: { id }, select: { id: true, username: true } }),
  );
  return { scopeType: input.scopeType, scope, user, role: input.role };
}

/** What each role event says happened to the user. */
const ROLE_EVENT_VERBS = { role_granted: "has gained", role_revoked: "has lost" } as const;

/** The audit event of a role given or ended, which followers of the event reconcile (`roleChange`: offering users). */
function roleEvent(type: keyof typeof ROLE_EVENT_VERBS, { scopeType, scope, user, role }: Awaited<ReturnType<typeof prepare>>): EventSpec {
  return {
    type,
    message: `User ${user.username} ${ROLE_EVENT_VERBS[type]} role ${role} in ${scope.name}.`,
    context: { affected_user_uuid: toHex(user.id), affected_user_username: user.username, role_name: role, scope_type: scopeType, scope_uuid: toHex(scope.id) },
    scopes: [...scope.chain.map((s) => ({ type: s.type, id: s.id })), { type: "USER", id: user.id }],
    roleChange: { userId: user.id, scopeType, scopeId: scope.id, role },
  };
}

export async function grantRole(ctx: Context, input: RoleInput) {
  const prepared = await prepare(ctx, input);
  const { scope, user, role } = prepared;
  if (input.expirationTime && input.expirationTime <= ctx.now()) {
    throw fieldError("expirationTime", "Expiration time should be greater than current time.");
  }
  return transact(ctx, async (tx, outbox) => {
    const active = { userId: user.id, role, scopeType: input.scopeType, scopeId: scope.id, isActive: true };
    // Serialises concurrent grants to the same user, so the duplicate check below cannot be raced.
    await tx.$queryRaw`SELECT 1 FROM users WHERE id = ${user.id}::uuid FOR UPDATE`;
    // An expired grant is no grant: retire it so the role can be given again.
    await tx.roleGrant.updateMany({ where: { ...active, expirationTime: { lte: ctx.now() } }, data: { isActive: false } });
    if (await findFirst(tx, "roleGrant", { where: active, select: { id: true } })) {
      throw inputError("User already has role within this scope.");
    }
    const grant = await tx.roleGrant.create({
      data: { ...active, expirationTime: input.expirationTime ?? null, createdById: ctx.viewer?.id ?? null, created: ctx.now() },
    });
    await recordEvent(ctx, tx, outbox, roleEvent("role_granted", prepared));
    return grant;
  });
}

/** Ends the user's grant of the role (every active one, expired or not); answers the grant ended. */
export async function revokeRole(ctx: Context, input: RoleInput) {
  const prepared = await prepare(ctx, input);
  const { scope, user, role } = prepared;
  return transact(ctx, async (tx, outbox) => {
    const [revoked] = await tx.roleGrant.updateManyAndReturn({
      where: { userId: user.id, role, scopeType: input.scopeType, scopeId: scope.id, isActive: true },
      data: { isActive: false },
      select: { id: true },
    });
    if (!revoked) throw notFound();
    await recordEvent(ctx, tx, outbox, roleEvent("role_revoked", prepared));
    return revoked;
  });
}

/** A stored grant's role, which only ever holds one of the roles known here. */
export function storedRole(name: string): Role {
  if (!isRole(name)) throw new Error(`A role grant holds the unknown role "${name}"`);
  return name;
}
