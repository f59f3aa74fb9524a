import type { ScopeType } from "../auth/access.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/**
 * What a directory filter narrows to: a Prisma `where`, or one that needs the request first (the viewer's roles,
 * the clock, another table's ids). Each list resolves its conditions before it queries.
 */
export type Condition<W> = W | ((ctx: Context) => Promise<W>);

export const resolveConditions = <W extends object>(ctx: Context, conditions: ReadonlyArray<Condition<W>>): Promise<W[]> =>
  Promise.all(conditions.map((condition) => (typeof condition === "function" ? condition(ctx) : condition)));

/** Matches no row. */
export const NOTHING = { id: { in: [] as string[] } };

/**
 * A Waldur field we do not store is empty on every row: a filter on it (exact or substring) matches everything for an
 * empty value and nothing otherwise.
 */
export const emptyField = (value: string) => (value === "" ? {} : NOTHING);

/** A filter on a concept nothing here has (call-managing organisations, archived customers): `true` matches nothing. */
export const absentFlag = (value: boolean) => (value ? NOTHING : {});

/** `a,b` and repeated values alike, trimmed, without blanks. */
export const commaList = (values: string | readonly string[]) =>
  (typeof values === "string" ? [values] : values).flatMap((value) => value.split(",")).map((value) => value.trim()).filter(Boolean);

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
  const rows = await ctx.db.roleGrant.findMany({ where, select: { scopeId: true }, distinct: ["scopeId"] });
  return rows.map((row) => row.scopeId);
}
