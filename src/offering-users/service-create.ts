import { offeringProviderScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { fieldError, inputError, missingObject, notFound } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { findUnique } from "../platform/reads/sql/find.ts";
import { maxLength } from "../platform/text.ts";
import { transact } from "../platform/database/transaction.ts";
import { describe, type OfferingUserCore, recordOfferingUserChange } from "./changes.ts";
import type { OfferingUserQuery } from "./service.ts";

export interface CreateOfferingUserInput {
  offering: string;
  user: string;
  username?: string | null;
}

export async function createOfferingUser(ctx: Context, input: CreateOfferingUserInput, query: OfferingUserQuery = {}) {
  ctx.requireViewer();
  const offeringId = parseUuid(input.offering);
  const userId = parseUuid(input.user);
  const [offering, user] = await Promise.all([
    offeringId ? findUnique(ctx.db, "offering", { where: { id: offeringId }, select: { id: true, name: true, customerId: true, pluginOptions: true } }) : null,
    userId ? findUnique(ctx.db, "user", { where: { id: userId }, select: { id: true, username: true } }) : null,
  ]);
  if (!offering) throw missingObject("offeringUuid");
  if (!user) throw missingObject("userUuid");
  await ctx.access.require(Permission.CREATE_OFFERING_USER, offeringProviderScopes(offering));
  const options = (offering.pluginOptions ?? {}) as Record<string, unknown>;
  if (options.service_provider_can_create_offering_user !== true) {
    throw fieldError("offeringUuid", "It is not allowed to create users for current offering.");
  }
  const username = input.username ? maxLength("username", input.username, 100) : (input.username ?? null);
  const state: OfferingUserState = username ? "OK" : "CREATION_REQUESTED";
  const duplicate = () => inputError("The fields offering, user must make a unique set.");
  return transact(ctx, async (tx, outbox) => {
    const exists = await findUnique(tx, "offeringUser", { where: { offeringId_userId: { offeringId: offering.id, userId: user.id } }, select: { id: true } });
    if (exists) throw duplicate();
    const created = await tx.offeringUser.create({
      data: { offeringId: offering.id, userId: user.id, username, state, created: ctx.now() },
      select: { id: true },
    });
    const core: OfferingUserCore = {
      id: created.id, state, username, offeringId: offering.id, userId: user.id,
      serviceProviderComment: "", serviceProviderCommentUrl: "",
      offeringName: offering.name, customerId: offering.customerId, userUsername: user.username,
    };
    await recordOfferingUserChange(ctx, tx, outbox, core, {
      eventType: "marketplace_offering_user_created",
      message: `Offering user ${describe(core)} has been created.`,
      previousState: null,
      state,
      context: { username },
    });
    const row = await findUnique(tx, "offeringUser", { where: { id: created.id }, ...query });
    if (!row) throw notFound();
    return row;
  }).catch((error: unknown) => {
    if ((error as { code?: string }).code === "P2002") throw duplicate();
    throw error;
  });
}

