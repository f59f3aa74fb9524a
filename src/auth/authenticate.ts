import type { Db } from "../platform/database/connect.ts";
import { type DomainError, unauthenticated } from "../platform/errors.ts";
import type { Viewer } from "./access.ts";
import { TOKEN_PATTERN, tokenDigest } from "./secrets.ts";
import type { TokenCache, TokenRow } from "./token-cache.ts";

/** `tokenDigest` names the token that authenticated the caller (logout revokes it; sessions are filed under it). */
export type Authentication = { viewer: Viewer | null; tokenDigest?: string; tokenKey?: string; failure?: DomainError };

const ANONYMOUS: Authentication = { viewer: null };

/** A token's last use is written at most this often, so a busy token costs no write per request (Waldur's debounce). */
export const LAST_USED_REFRESH_MS = 60_000;

/**
 * Waldur's idle expiry: a token unused for longer than its user's `token_lifetime` (seconds) is refused. The recorded
 * use lags the real one by up to LAST_USED_REFRESH_MS, so that lag is allowed on top: a token in steady use never
 * expires, and an idle one expires between `token_lifetime` and a minute more after its last use.
 */
export const isExpired = (lastUsed: Date, tokenLifetime: number | null, now: Date) =>
  tokenLifetime !== null && now.getTime() - lastUsed.getTime() > tokenLifetime * 1000 + LAST_USED_REFRESH_MS;


/**
 * DRF's TokenAuthentication with Waldur's `token_lifetime`, including their error messages. Other schemes are
 * ignored (anonymous). One query per call (none for a token `cache` accepted within TOKEN_CACHE_MS), plus one write per
 * token and minute to record its use.
 */
export async function authenticate(
  db: Db,
  authorization: string | null | undefined,
  now = new Date(),
  cache?: TokenCache,
): Promise<Authentication> {
  const parts = (authorization ?? "").trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0 || parts[0].toLowerCase() !== "token") return ANONYMOUS;
  if (parts.length === 1) return { viewer: null, failure: unauthenticated("Invalid token. No credentials provided.") };
  if (parts.length > 2) {
    return { viewer: null, failure: unauthenticated("Invalid token. Token string should not contain spaces.") };
  }
  const key = parts[1];
  if (!TOKEN_PATTERN.test(key)) return { viewer: null, failure: unauthenticated("Invalid token.") };
  const digest = tokenDigest(key);
  const cached = cache?.get(digest, now);
  const row = cached && accepts(cached, now) ? cached : await lookUp(db, digest);
  if (!row) return { viewer: null, failure: unauthenticated("Invalid token.") };
  if (!row.isActive) return { viewer: null, failure: unauthenticated("User inactive or deleted.") };
  if (isExpired(row.lastUsed, row.tokenLifetime, now)) return { viewer: null, failure: unauthenticated("Token has expired.") };
  if (row !== cached) cache?.set(digest, row, now);
  if (now.getTime() - row.lastUsed.getTime() >= LAST_USED_REFRESH_MS) {
    // Conditional, so a request whose clock runs behind never moves the last use back.
    await db.$executeRaw`UPDATE auth_tokens SET last_used = ${now} WHERE key_digest = ${digest} AND last_used < ${now}`;
    cache?.used(digest, now);
  }
  const { isActive: _active, lastUsed: _used, tokenLifetime: _lifetime, ...viewer } = row;
  return { viewer, tokenDigest: digest, tokenKey: key };
}

/** A cached row answers only for a token it would accept: every refusal is decided on a fresh read. */
const accepts = (row: TokenRow, now: Date) => row.isActive && !isExpired(row.lastUsed, row.tokenLifetime, now);

async function lookUp(db: Db, digest: string): Promise<TokenRow | undefined> {
  const [row] = await db.$queryRaw<TokenRow[]>`
    SELECT u.id, u.username, u.is_staff AS "isStaff", u.is_support AS "isSupport", u.is_active AS "isActive",
           t.last_used AS "lastUsed", u.token_lifetime AS "tokenLifetime"
    FROM auth_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.key_digest = ${digest}`;
  return row;
}
