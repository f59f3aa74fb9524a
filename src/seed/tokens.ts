import { newTokenKey, tokenDigest } from "../auth/secrets.ts";
import type { Db } from "../platform/database/connect.ts";
import { findUnique } from "../platform/reads/sql/find.ts";

/** A fresh token for a user (only the digest is stored, so each call issues a new key). */
export async function issueToken(db: Db, username: string): Promise<string | null> {
  const user = await findUnique(db, "user", { where: { username }, select: { id: true } });
  if (!user) return null;
  const key = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(key), userId: user.id } });
  return key;
}
