import type { ScopeType } from "../auth/access.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { findMany } from "../platform/reads/sql/find.ts";

/** Role grants in force at `now`, of one kind of scope (optionally some roles or scopes). */
export const grantsInForce = (
  now: Date,
  scopeType: ScopeType,
  narrower: { roles?: string[]; scopeIds?: string[]; userIds?: string[] } = {},
): Prisma.RoleGrantWhereInput => ({
  isActive: true,
  scopeType,
  OR: [{ expirationTime: null }, { expirationTime: { gt: now } }],
  ...(narrower.roles && { role: { in: narrower.roles } }),
  ...(narrower.scopeIds && { scopeId: { in: narrower.scopeIds } }),
  ...(narrower.userIds && { userId: { in: narrower.userIds } }),
});

/** The scope ids of the grants in force that match. */
export async function grantedScopeIds(ctx: Context, where: Prisma.RoleGrantWhereInput): Promise<string[]> {
  const rows = await findMany(ctx.db, "roleGrant", { where, select: { scopeId: true }, distinct: ["scopeId"] });
  return rows.map((row) => row.scopeId);
}
