import { hashPassword } from "../auth/secrets.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { recordEvent } from "../events/record.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { fieldError } from "../platform/errors.ts";
import { idSet, toHex } from "../platform/ids.ts";
import { maxLength } from "../platform/text.ts";
import { transact } from "../platform/database/transaction.ts";
import { requireStaff, visibleOne } from "./lookup.ts";
import { USER_CONTRACT } from "./users-contract.ts";
import { visibleUsers } from "./visibility.ts";
import { findFirst, findMany, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type UserQuery = { select?: Prisma.UserSelect; include?: Prisma.UserInclude };

export async function listUsers(
  ctx: Context,
  args: ListRequest<typeof USER_CONTRACT>,
  query: UserQuery = {},
) {
  return listPage(ctx.db, "user", USER_CONTRACT, { visible: await visibleUsers(ctx), request: args, query }, ctx);
}

export async function getUser(ctx: Context, uuid: string, query: UserQuery = {}) {
  const visible = await visibleUsers(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "user", { ...query, where: { AND: [{ id }, visible] } }));
}

/** Which of `ids` the viewer may see as users (getUser's rule). */
export const visibleUserIds = async (ctx: Context, ids: string[]) =>
  idSet(await findMany(ctx.db, "user", { where: { AND: [{ id: { in: ids } }, await visibleUsers(ctx)] }, select: { id: true } }));

export function getMe(ctx: Context, query: UserQuery = {}) {
  const viewer = ctx.requireViewer();
  return findUniqueOrThrow(ctx.db, "user", { ...query, where: { id: viewer.id } });
}

export interface CreateUserInput {
  username: string;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  password?: string | null;
  isStaff?: boolean | null;
  isSupport?: boolean | null;
}

const USERNAME = /^[\w.@+-]{1,150}$/;

export async function createUser(ctx: Context, input: CreateUserInput, query: UserQuery = {}) {
  requireStaff(ctx);
  if (!USERNAME.test(input.username)) {
    throw fieldError("username", "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.");
  }
  if (input.email && !/^[^\s@]+@[^\s@]+$/.test(input.email)) throw fieldError("email", "Enter a valid email address.");
  const data = {
    username: input.username,
    email: maxLength("email", input.email ?? "", 320),
    firstName: maxLength("firstName", input.firstName ?? "", 100),
    lastName: maxLength("lastName", input.lastName ?? "", 100),
    isStaff: input.isStaff ?? false,
    isSupport: input.isSupport ?? false,
    passwordHash: input.password ? await hashPassword(input.password) : null,
  };
  const taken = () => fieldError("username", "A user with that username already exists.");
  const id = await transact(ctx, async (tx, outbox) => {
    if (await findUnique(tx, "user", { where: { username: data.username }, select: { id: true } })) throw taken();
    const user = await tx.user.create({ data, select: { id: true } });
    await recordEvent(ctx, tx, outbox, {
      type: "user_creation_succeeded",
      message: `User ${data.username} has been created.`,
      context: { affected_user_uuid: toHex(user.id), affected_user_username: data.username },
      scopes: [{ type: "USER", id: user.id }],
    });
    return user.id;
  }).catch((error: { code?: string }) => {
    throw error.code === "P2002" ? taken() : error;
  });
  return findUniqueOrThrow(ctx.db, "user", { ...query, where: { id } });
}

