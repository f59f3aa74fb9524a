import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/** Waldur's SshKeyViewSet: staff and support see every key, everyone else their own. */
export async function visibleSshKeys(ctx: Context): Promise<Prisma.SshKeyWhereInput> {
  if (ctx.access.readsAll) return {};
  return { userId: ctx.requireViewer().id };
}
