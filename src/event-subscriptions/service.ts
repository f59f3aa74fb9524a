import type { Context } from "../context.ts";
import type { EventSubscription, Prisma } from "../generated/prisma/client.ts";
import { visibleOne } from "../directory/lookup.ts";
import { findManagedAgentIdentity } from "../site-agents/service.ts";
import type { FilterValues, OrderValue } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { fieldError } from "../platform/errors.ts";
import { toHex } from "../platform/ids.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { maxLength } from "../platform/text.ts";
import { configuredBroker, presentedToken, provisioned } from "./broker-access.ts";
import { EVENT_SUBSCRIPTION_CONTRACT } from "./contract.ts";
import { vhostOf } from "./naming.ts";
import { isObservableObjectType } from "./object-types.ts";
import { removeBrokerLogins } from "./teardown.ts";
import { findFirst, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type SubscriptionQuery = { select?: Prisma.EventSubscriptionSelect; include?: Prisma.EventSubscriptionInclude };
export type SubscriptionFilter = FilterValues<typeof EVENT_SUBSCRIPTION_CONTRACT>;
export type SubscriptionOrder = OrderValue<typeof EVENT_SUBSCRIPTION_CONTRACT>;

/** Owners see their own subscriptions; staff and support see all (Waldur's EventSubscriptionViewSet). */
export function visibleSubscriptions(ctx: Context): Prisma.EventSubscriptionWhereInput {
  const viewer = ctx.requireViewer();
  return ctx.access.readsAll ? {} : { userId: viewer.id };
}

export async function listEventSubscriptions(
  ctx: Context,
  args: ListRequest<typeof EVENT_SUBSCRIPTION_CONTRACT>,
  query: SubscriptionQuery = {},
): Promise<Connection<EventSubscription>> {
  return listPage(ctx.db, "eventSubscription", EVENT_SUBSCRIPTION_CONTRACT, { visible: visibleSubscriptions(ctx), request: args, query });
}

export function getEventSubscription(ctx: Context, uuid: string, query: SubscriptionQuery = {}) {
  const visible = visibleSubscriptions(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "eventSubscription", { ...query, where: { AND: [{ id }, visible] } }));
}

export interface RegistrationInput {
  observableObjectType: string;
  description?: string | null;
}

/**
 * Waldur's `register_event_subscription`: the caller's subscription to one type, made or refreshed (`created` says
 * which), with its broker login set to the presented token. Keyed per token as well as per user and type, so two
 * agents of one user with different tokens keep their own logins.
 */
export async function registerEventSubscription(ctx: Context, identityUuid: string, input: RegistrationInput, query: SubscriptionQuery = {}) {
  const viewer = ctx.requireViewer();
  await findManagedAgentIdentity(ctx, identityUuid);
  const broker = configuredBroker(ctx);
  const objectType = input.observableObjectType;
  if (!isObservableObjectType(objectType)) throw fieldError("observableObjectType", `"${objectType}" is not a valid choice.`);
  const description = maxLength("description", input.description ?? "", 10_000);
  const token = presentedToken(ctx);
  const key = { userId: viewer.id, objectType, tokenDigest: token.digest };
  const existing = await findUnique(ctx.db, "eventSubscription", { where: { userId_objectType_tokenDigest: key }, select: { id: true } });
  const refreshed = { description, sourceIp: ctx.ipAddress, modified: ctx.now() };
  const row = await ctx.db.eventSubscription.upsert({
    where: { userId_objectType_tokenDigest: key },
    create: { ...key, ...refreshed, created: ctx.now() },
    update: refreshed,
    select: { id: true },
  });
  const vhost = vhostOf(viewer.id);
  try {
    await provisioned("user or vhost", async () => {
      await broker.ensureVhost(vhost);
      await broker.ensureUser(vhost, toHex(row.id), token.key);
    });
  } catch (error) {
    if (!existing) await ctx.db.eventSubscription.deleteMany({ where: { id: row.id } });
    throw error;
  }
  const subscription = await findUniqueOrThrow(ctx.db, "eventSubscription", { ...query, where: { id: row.id } });
  return { subscription, created: !existing };
}

/** Removes the subscription with its queues and its broker login. */
export async function deleteEventSubscription(ctx: Context, uuid: string) {
  const visible = visibleSubscriptions(ctx);
  const subscription = await visibleOne(uuid, (id) =>
    findFirst(ctx.db, "eventSubscription", { where: { AND: [{ id }, visible] }, include: { queues: { select: { offeringId: true, objectType: true } } } }),
  );
  await ctx.db.eventSubscription.delete({ where: { id: subscription.id } });
  await removeBrokerLogins(ctx, [subscription]);
  return subscription.id;
}
