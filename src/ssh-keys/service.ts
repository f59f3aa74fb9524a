import type { Context } from "../context.ts";
import { referenced, visibleOne } from "../directory/lookup.ts";
import { recordEvent } from "../events/record.ts";
import type { Prisma, SshKey } from "../generated/prisma/client.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { fieldError, forbidden, notFound } from "../platform/errors.ts";
import { parseUuid, toHex } from "../platform/ids.ts";
import { maxLength } from "../platform/text.ts";
import { type Outbox, transact, type Tx } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import { SSH_KEY_CONTRACT } from "./contract.ts";
import { parsePublicKey } from "./openssh.ts";
import { visibleSshKeys } from "./visibility.ts";
import { findFirst, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type SshKeyQuery = { select?: Prisma.SshKeySelect; include?: Prisma.SshKeyInclude };

export type SshKeyListArgs = ListRequest<typeof SSH_KEY_CONTRACT>;

const MAX_PUBLIC_KEY_LENGTH = 2000;
const MAX_NAME_LENGTH = 150;

export async function listSshKeys(ctx: Context, args: SshKeyListArgs, query: SshKeyQuery = {}): Promise<Connection<SshKey>> {
  return listPage(ctx.db, "sshKey", SSH_KEY_CONTRACT, { visible: await visibleSshKeys(ctx), request: args, query }, ctx);
}

/** The key `uuid`, read by `find` among those the viewer may see (404 otherwise). */
async function findVisible<T>(ctx: Context, uuid: string, find: (where: Prisma.SshKeyWhereInput) => Promise<T | null>) {
  const visible = await visibleSshKeys(ctx);
  return visibleOne(uuid, (id) => find({ AND: [{ id }, visible] }));
}

export async function getSshKey(ctx: Context, uuid: string, query: SshKeyQuery = {}) {
  return findVisible(ctx, uuid, (where) => findFirst(ctx.db, "sshKey", { ...query, where }));
}

export interface CreateSshKeyInput {
  publicKey: string;
  name?: string | null;
  /** Staff may add a key for another user. */
  userUuid?: string | null;
}

const duplicate = () => fieldError("publicKey", "Key with same fingerprint already exists.");

function validKey(publicKey: string) {
  maxLength("publicKey", publicKey, MAX_PUBLIC_KEY_LENGTH);
  const parsed = parsePublicKey(publicKey);
  if ("problem" in parsed) throw fieldError("publicKey", `Key is not valid: ${parsed.problem}`);
  return parsed.key;
}

async function keyOwner(ctx: Context, userUuid: string | null | undefined) {
  const viewer = ctx.requireViewer();
  if (userUuid == null || parseUuid(userUuid) === viewer.id) return { id: viewer.id, username: viewer.username };
  const owner = await referenced("userUuid", userUuid, (id) => findUnique(ctx.db, "user", { where: { id }, select: { id: true, username: true } }));
  if (!ctx.access.isStaff) throw forbidden("Only staff may add a key for another user.");
  return owner;
}

type KeyCore = { id: string; name: string; fingerprintSha256: string };

async function recordKeyEvent(ctx: Context, tx: Tx, outbox: Outbox<Topics>, change: "creation" | "deletion", key: KeyCore, owner: { id: string; username: string }) {
  await recordEvent(ctx, tx, outbox, {
    type: `ssh_key_${change}_succeeded`,
    message: `SSH key ${key.name} has been ${change === "creation" ? "created" : "deleted"} for user ${owner.username}.`,
    context: {
      ssh_key_uuid: toHex(key.id),
      ssh_key_name: key.name,
      ssh_key_fingerprint_sha256: key.fingerprintSha256,
      affected_user_uuid: toHex(owner.id),
      affected_user_username: owner.username,
    },
    scopes: [{ type: "USER", id: owner.id }],
  });
}

export async function createSshKey(ctx: Context, input: CreateSshKeyInput, query: SshKeyQuery = {}) {
  ctx.requireViewer();
  const key = validKey(input.publicKey);
  const name = input.name ? maxLength("name", input.name, MAX_NAME_LENGTH) : key.comment.slice(0, MAX_NAME_LENGTH);
  const owner = await keyOwner(ctx, input.userUuid);
  return transact(ctx, async (tx, outbox) => {
    const existing = await findUnique(tx, "sshKey", { where: { userId_fingerprintSha256: { userId: owner.id, fingerprintSha256: key.fingerprintSha256 } } });
    if (existing) throw duplicate();
    const created = await tx.sshKey.create({
      data: { userId: owner.id, name, publicKey: key.publicKey, type: key.type, fingerprintMd5: key.fingerprintMd5, fingerprintSha256: key.fingerprintSha256, created: ctx.now() },
      select: { id: true, name: true, fingerprintSha256: true },
    });
    await recordKeyEvent(ctx, tx, outbox, "creation", created, owner);
    return findUniqueOrThrow(tx, "sshKey", { ...query, where: { id: created.id } });
  }).catch((error: { code?: string }) => {
    throw error.code === "P2002" ? duplicate() : error;
  });
}

/** The owner or staff; support see every key but may not delete one. */
export async function deleteSshKey(ctx: Context, uuid: string): Promise<string> {
  const viewer = ctx.requireViewer();
  const key = await findVisible(ctx, uuid, (where) =>
    findFirst(ctx.db, "sshKey", { select: { id: true, name: true, fingerprintSha256: true, user: { select: { id: true, username: true } } }, where }),
  );
  if (key.user.id !== viewer.id && !ctx.access.isStaff) throw forbidden();
  await transact(ctx, async (tx, outbox) => {
    const { count } = await tx.sshKey.deleteMany({ where: { id: key.id } });
    if (!count) throw notFound();
    await recordKeyEvent(ctx, tx, outbox, "deletion", key, key.user);
  });
  return toHex(key.id);
}
