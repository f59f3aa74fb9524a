import type { Prisma } from "../generated/prisma/client.ts";
import { defineContract } from "../platform/collection-contract.ts";
import { icontains } from "../platform/text-match.ts";

/**
 * SSH keys (Waldur's SshKeyFilter, for /api/keys/ and a provider's keys/). A key is never changed after it is added,
 * so its modification time is its creation time; shared keys are not supported, so none is shared.
 */

/** The keys whose SHA-512 fingerprint is the one asked for: not stored, so the service looks them up per request. */
export type KeysWithSha512 = (fingerprint: string) => string[];

const NOTHING = { id: { in: [] } };

export function sshKeyContract(keysWithSha512: KeysWithSha512) {
  return defineContract<Prisma.SshKeyWhereInput, Prisma.SshKeyOrderByWithRelationInput>()({
    filters: {
      userUuid: { kind: "uuids", rest: { user_uuid: "uuid" }, description: "The key's owner", where: (ids) => ({ userId: { in: ids } }) },
      name: { kind: "text", rest: "name", description: "Contains, case-insensitive", where: (name) => ({ name: icontains(name) }) },
      nameExact: { kind: "text", rest: "name_exact", description: "Exact", where: (name) => ({ name }) },
      fingerprintMd5: { kind: "text", rest: "fingerprint_md5", where: (fingerprintMd5) => ({ fingerprintMd5 }) },
      fingerprintSha256: { kind: "text", rest: "fingerprint_sha256", where: (fingerprintSha256) => ({ fingerprintSha256 }) },
      fingerprintSha512: {
        kind: "text",
        rest: "fingerprint_sha512",
        description: '"SHA512:" and the unpadded base64 digest',
        where: (fingerprint) => ({ id: { in: keysWithSha512(fingerprint) } }),
      },
      isShared: { kind: "boolean", rest: "is_shared", description: "No key is shared", where: (shared) => (shared ? NOTHING : {}) },
      createdAfter: { kind: "after", rest: ["created"], description: "Added at or after", where: (gte) => ({ created: { gte } }) },
      createdBefore: { kind: "before", rest: "created_before", description: "Added before", where: (lt) => ({ created: { lt } }) },
      modifiedAfter: { kind: "after", rest: ["modified"], description: "Keys never change: added at or after", where: (gte) => ({ created: { gte } }) },
      modifiedBefore: { kind: "before", rest: "modified_before", description: "Keys never change: added before", where: (lt) => ({ created: { lt } }) },
    },
    orderings: {
      name: (direction) => ({ name: direction }),
      created: (direction) => ({ created: direction }),
    },
    defaultOrder: ["name"],
    tiebreak: [{ created: "asc" }, { id: "asc" }],
  });
}

/** The contract as GraphQL, REST and OpenAPI read it; listing builds one over the keys it looked up. */
export const SSH_KEY_CONTRACT = sshKeyContract(() => {
  throw new Error("The SHA-512 fingerprint filter needs the keys looked up per request: build sshKeyContract() with them.");
});
