import { createHash } from "node:crypto";

export const SSH_KEY_TYPES = [
  "ssh-rsa",
  "ssh-ed25519",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
] as const;

export interface ParsedPublicKey {
  type: string;
  /** The key line as stored: trimmed. */
  publicKey: string;
  comment: string;
  fingerprintMd5: string;
  fingerprintSha256: string;
}

export type ParseResult = { key: ParsedPublicKey } | { problem: string };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const LENGTH_PREFIX = 4;

/** The string a wire-format blob starts with: a big-endian uint32 length, then that many bytes. */
function embeddedType(blob: Buffer): string | undefined {
  if (blob.length < LENGTH_PREFIX) return undefined;
  const length = blob.readUInt32BE(0);
  if (length > blob.length - LENGTH_PREFIX) return undefined;
  return blob.subarray(LENGTH_PREFIX, LENGTH_PREFIX + length).toString("latin1");
}

/** Waldur's fingerprints: MD5 as colon-separated hex pairs, SHA-256 as "SHA256:" + unpadded base64. */
export function fingerprints(blob: Buffer) {
  const md5 = createHash("md5").update(blob).digest("hex");
  return {
    fingerprintMd5: md5.match(/../g)!.join(":"),
    fingerprintSha256: `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`,
  };
}

/** Waldur's SHA-512 fingerprint of a stored key line: "SHA512:" + unpadded base64 of its body's digest. */
export function sha512Fingerprint(publicKey: string): string {
  const body = publicKey.trim().split(/\s+/)[1] ?? "";
  return `SHA512:${createHash("sha512").update(Buffer.from(body, "base64")).digest("base64").replace(/=+$/, "")}`;
}

/** Parses an OpenSSH public key line, "type base64 [comment]". */
export function parsePublicKey(line: string): ParseResult {
  const trimmed = line.trim();
  if (/[\r\n]/.test(trimmed)) return { problem: "it should be single line." };
  const [, type = "", body = "", comment = ""] = /^(\S*)\s*(\S*)\s*(.*)$/.exec(trimmed) ?? [];
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type)) {
    return { problem: `unsupported key type "${type.slice(0, 50)}"; supported types are ${SSH_KEY_TYPES.join(", ")}.` };
  }
  if (!body || body.length % 4 !== 0 || !BASE64.test(body)) return { problem: "the key body is not valid base64." };
  const blob = Buffer.from(body, "base64");
  const encodedType = embeddedType(blob);
  if (encodedType !== type) return { problem: `the key body does not encode a ${type} key.` };
  if (blob.length <= LENGTH_PREFIX + type.length) return { problem: "the key body holds no key material." };
  return { key: { type, comment, publicKey: trimmed, ...fingerprints(blob) } };
}
