import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { absentFlag, defineContract } from "../collections/contract.ts";
import { icontains } from "../platform/reads/text-match.ts";

/**
 * SSH keys (Waldur's SshKeyFilter, for /api/keys/ and a provider's keys/). A key is never changed after it is added,
 * so its modification time is its creation time; shared keys are not supported, so none is shared.
 */

/**
 * The keys whose SHA-512 fingerprint is the one asked for. It is not stored, so they are found by hashing each stored
 * key body in the database as Waldur hashes it ("SHA512:" and unpadded base64).
 */
async function keysWithSha512(ctx: Context, fingerprint: string): Promise<string[]> {
  const rows = await ctx.db.$queryRaw<Array<{ id: string }>>`
    SELECT id::text AS id FROM ssh_keys
    WHERE 'SHA512:' || rtrim(replace(encode(sha512(decode((regexp_split_to_array(public_key, '[[:space:]]+'))[2], 'base64')), 'base64'), chr(10), ''), '=')
      = ${fingerprint}`;
  return rows.map((row) => row.id);
}

const NOTHING = { id: { in: [] } };

export const SSH_KEY_CONTRACT = defineContract<Prisma.SshKeyWhereInput, Prisma.SshKeyOrderByWithRelationInput, Context>()({
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
      where: (fingerprint) => async (ctx) => ({ id: { in: await keysWithSha512(ctx, fingerprint) } }),
    },
    isShared: { kind: "boolean", rest: "is_shared", description: "No key is shared", where: absentFlag(NOTHING) },
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
