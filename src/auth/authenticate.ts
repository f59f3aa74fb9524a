import type { Db } from "../platform/database.ts";
import { type DomainError, unauthenticated } from "../platform/errors.ts";
import type { Viewer } from "./access.ts";
import { TOKEN_PATTERN, tokenDigest } from "./secrets.ts";

export type Authentication = { viewer: Viewer | null; failure?: DomainError };

const ANONYMOUS: Authentication = { viewer: null };

/** DRF's TokenAuthentication, including its error messages. Other schemes are ignored (anonymous). */
export async function authenticate(db: Db, authorization: string | null | undefined): Promise<Authentication> {
  const parts = (authorization ?? "").trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0 || parts[0].toLowerCase() !== "token") return ANONYMOUS;
  if (parts.length === 1) return { viewer: null, failure: unauthenticated("Invalid token. No credentials provided.") };
  if (parts.length > 2) {
    return { viewer: null, failure: unauthenticated("Invalid token. Token string should not contain spaces.") };
  }
  const key = parts[1];
  if (!TOKEN_PATTERN.test(key)) return { viewer: null, failure: unauthenticated("Invalid token.") };
  const token = await db.authToken.findUnique({
    where: { keyDigest: tokenDigest(key) },
    select: { user: { select: { id: true, username: true, isStaff: true, isSupport: true, isActive: true } } },
  });
  if (!token) return { viewer: null, failure: unauthenticated("Invalid token.") };
  if (!token.user.isActive) return { viewer: null, failure: unauthenticated("User inactive or deleted.") };
  const { isActive: _active, ...viewer } = token.user;
  return { viewer };
}
