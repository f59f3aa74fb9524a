import { generateKeyPairSync } from "node:crypto";

/** OpenSSH public key lines for tests, built from node:crypto key pairs in the SSH wire format. */

const sshString = (bytes: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};
const text = (value: string) => sshString(Buffer.from(value));
const fromJwk = (value: string | undefined) => Buffer.from(value!, "base64url");
/** A positive multiple-precision integer: a leading zero byte when the high bit is set. */
const mpint = (bytes: Buffer) => sshString(bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);

const line = (type: string, parts: Buffer[], comment: string) =>
  [type, Buffer.concat([text(type), ...parts]).toString("base64"), comment].filter(Boolean).join(" ");

export function ed25519Key(comment = "") {
  const jwk = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
  return line("ssh-ed25519", [sshString(fromJwk(jwk.x))], comment);
}

export function rsaKey(comment = "") {
  const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "jwk" });
  return line("ssh-rsa", [mpint(fromJwk(jwk.e)), mpint(fromJwk(jwk.n))], comment);
}

export function ecdsaKey(comment = "") {
  const jwk = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "jwk" });
  const point = Buffer.concat([Buffer.from([4]), fromJwk(jwk.x), fromJwk(jwk.y)]);
  return line("ecdsa-sha2-nistp256", [text("nistp256"), sshString(point)], comment);
}
