import type { Context } from "../context.ts";
import { requireStaff, visibleOne } from "../directory/lookup.ts";
import { getUser, type UserQuery } from "../directory/service-users.ts";
import { recordEvent } from "../events/record.ts";
import { AuthenticationError, fieldError, forbidden, unauthenticated } from "../platform/errors.ts";
import { toHex } from "../platform/ids.ts";
import { transact } from "../platform/database/transaction.ts";
import { newTokenKey, tokenDigest, verifyPassword } from "../auth/secrets.ts";
import { loginAttempt } from "./login-throttle.ts";
import { findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

/** PositiveIntegerField with MinValueValidator(60), as Waldur's User.token_lifetime. */
const TOKEN_LIFETIME_RANGE = { min: 60, max: 2_147_483_647 };

/**
 * A token lifetime as given (a number or a numeric string, as DRF's IntegerField takes), or DRF's field error, named
 * `field` (the REST body reader passes its own name).
 */
export function readTokenLifetime(value: unknown, field = "tokenLifetime"): number | null {
  if (value === null) return null;
  const number = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number)) throw fieldError(field, "A valid integer is required.");
  if (number < TOKEN_LIFETIME_RANGE.min) {
    throw fieldError(field, `Ensure this value is greater than or equal to ${TOKEN_LIFETIME_RANGE.min}.`);
  }
  if (number > TOKEN_LIFETIME_RANGE.max) {
    throw fieldError(field, `Ensure this value is less than or equal to ${TOKEN_LIFETIME_RANGE.max}.`);
  }
  return number;
}

/** Whether the viewer may read a user's `token_lifetime`: the user themself, staff and support. */
export const seesTokenLifetime = (ctx: Context, userId: string) => ctx.viewer?.id === userId || ctx.access.readsAll;

/**
 * Sets a user's idle token lifetime (null: never expires). The user themself may, and staff for anyone. Open
 * connections of tokens already idle for longer end at the next check (GRAPHQL_WS_TOKEN_CHECK_MS).
 */
export async function setTokenLifetime(
  ctx: Context,
  uuid: string,
  tokenLifetime: number | null | undefined,
  query: UserQuery = {},
) {
  const viewer = ctx.requireViewer();
  const user = await getUser(ctx, uuid, { select: { id: true } });
  if (user.id !== viewer.id && !ctx.access.isStaff) throw forbidden();
  if (tokenLifetime !== undefined) {
    await ctx.db.user.update({ where: { id: user.id }, data: { tokenLifetime: readTokenLifetime(tokenLifetime) } });
  }
  return findUniqueOrThrow(ctx.db, "user", { ...query, where: { id: user.id } });
}

/** Waldur's `POST /api-auth/logout/`: deletes the token this request came with; what it opened is closed. */
export async function logout(ctx: Context): Promise<true> {
  const viewer = ctx.requireViewer();
  const digest = ctx.tokenDigest;
  if (!digest) throw unauthenticated();
  await transact(ctx, async (tx, outbox) => {
    await tx.authToken.deleteMany({ where: { keyDigest: digest } });
    const user = await findUniqueOrThrow(tx, "user", { where: { id: viewer.id }, select: { firstName: true, lastName: true } });
    const fullName = `${user.firstName} ${user.lastName}`.trim();
    await recordEvent(ctx, tx, outbox, {
      type: "auth_logged_out",
      message: `User ${viewer.username} with full name ${fullName} logged out.`,
      context: {},
      scopes: [{ type: "USER", id: viewer.id }],
    });
    outbox.publish("tokenRevoked", { tokenDigests: [digest], reason: "revoked" });
  });
  ctx.sessions.end([digest], "revoked");
  return true;
}

/**
 * Waldur's staff-only `POST /api/users/{uuid}/refresh_token/`: the user's tokens (every one: here a user may hold
 * several) are deleted, with what they opened on every instance, and one new token is issued.
 */
export async function refreshUserToken(ctx: Context, uuid: string) {
  requireStaff(ctx);
  const user = await visibleOne(uuid, (id) => findUnique(ctx.db, "user", { where: { id }, select: { id: true } }));
  const key = newTokenKey();
  const { revoked, created } = await transact(ctx, async (tx, outbox) => {
    const deleted = await tx.$queryRaw<Array<{ digest: string }>>`
      DELETE FROM auth_tokens WHERE user_id = ${user.id}::uuid RETURNING key_digest AS digest`;
    const now = ctx.now();
    const token = await tx.authToken.create({
      data: { keyDigest: tokenDigest(key), userId: user.id, created: now, lastUsed: now },
      select: { created: true },
    });
    const revoked = deleted.map((row) => row.digest);
    if (revoked.length) outbox.publish("tokenRevoked", { tokenDigests: revoked, reason: "revoked" });
    return { revoked, created: token.created };
  });
  ctx.sessions.end(revoked, "revoked");
  return { token: key, created, userId: user.id, userUuid: toHex(user.id) };
}

/** Exchanges a username and password for a new API token (only its digest is stored). */
export async function obtainToken(ctx: Context, username: string, password: string): Promise<string> {
  const attempt = await loginAttempt(ctx, username);
  const user = await findUnique(ctx.db, "user", { where: { username }, select: { id: true, passwordHash: true, isActive: true } });
  // Verified even without a user (against a dummy hash), so the time taken does not tell which usernames exist.
  const valid = (await verifyPassword(password, user?.passwordHash)) && user?.isActive;
  if (!user || !valid) throw new AuthenticationError("Unable to log in with provided credentials.");
  await attempt.succeeded();
  const key = newTokenKey();
  await ctx.db.authToken.create({ data: { keyDigest: tokenDigest(key), userId: user.id } });
  return key;
}
