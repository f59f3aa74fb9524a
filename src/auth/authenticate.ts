import type { Db } from "../platform/database.ts";
import { type DomainError, unauthenticated } from "../platform/errors.ts";
import type { Viewer } from "./access.ts";
import { TOKEN_PATTERN, tokenDigest } from "./secrets.ts";

export type Authentication = { viewer: Viewer | null; failure?: DomainError };

const ANONYMOUS: Authentication = { viewer: null };

/** DRF's TokenAuthentication, including its error messages. Other schemes are ignored (anonymous). One query per call. */
export async function authenticate(db: Db, authorization: string | null | undefined): Promise<Authentication> {
  const parts = (authorization ?? "").trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0 || parts[0].toLowerCase() !== "token") return ANONYMOUS;
  if (parts.length === 1) return { viewer: null, failure: unauthenticated("Invalid token. No credentials provided.") };
  if (parts.length > 2) {
    return { viewer: null, failure: unauthenticated("Invalid token. Token string should not contain spaces.") };
  }
  const key = parts[1];
  if (!TOKEN_PATTERN.test(key)) return { viewer: null, failure: unauthenticated("Invalid token.") };
  const [user] = await db.$queryRaw<Array<Viewer & { isActive: boolean }>>`
    SELECT u.id, u.username, u.is_staff AS "isStaff", u.is_support AS "isSupport", u.is_active AS "isActive"
    FROM auth_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.key_digest = ${tokenDigest(key)}`;
  if (!user) return { viewer: null, failure: unauthenticated("Invalid token.") };
  if (!user.isActive) return { viewer: null, failure: unauthenticated("User inactive or deleted.") };
  const { isActive: _active, ...viewer } = user;
  return { viewer };
}
