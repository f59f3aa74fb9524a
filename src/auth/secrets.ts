import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export const TOKEN_PATTERN = /^[0-9a-f]{40}$/i;

export const newTokenKey = () => randomBytes(20).toString("hex");

/** Tokens are stored as a SHA-256 digest: keys are random 160-bit values, so no salt or stretching is needed. */
export const tokenDigest = (key: string) => createHash("sha256").update(key.toLowerCase()).digest("hex");

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString("hex")}$${hash.toString("hex")}`;
}

/** Stands in for a missing or unusable hash, so that verifying costs the same whether or not the user has a password. */
const DUMMY_HASH = `scrypt$${"0".repeat(32)}$${"0".repeat(64)}`;

/**
 * Whether the password matches the stored hash. Without a usable hash (no such user, no password) a dummy hash is
 * verified and false answered, so the time taken does not tell which usernames exist.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? "").split("$");
  const usable = parts.length === 3 && parts[0] === "scrypt" && /^([0-9a-f]{2})+$/.test(parts[1]) && /^([0-9a-f]{2})+$/.test(parts[2]);
  const [, saltHex, hashHex] = usable ? parts : DUMMY_HASH.split("$");
  const expected = Buffer.from(hashHex, "hex");
  const actual = await scryptAsync(password, Buffer.from(saltHex, "hex"), expected.length);
  return usable && timingSafeEqual(actual, expected);
}
