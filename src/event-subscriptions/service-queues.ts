import type { Context } from "../context.ts";
import type { EventSubscriptionQueue, Prisma } from "../generated/prisma/client.ts";
import { visibleOne } from "../directory/lookup.ts";
import { visibleOfferings } from "../directory/visibility.ts";
import type { FilterValues, OrderValue } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { fieldError } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { configuredBroker, provisioned } from "./broker-access.ts";
import { EVENT_SUBSCRIPTION_QUEUE_CONTRACT } from "./contract.ts";
import { subscriptionQueueName, vhostOf } from "./naming.ts";
import { isObservableObjectType } from "./object-types.ts";
import { getEventSubscription, visibleSubscriptions } from "./service.ts";
import { count, findFirst, findUnique } from "../platform/reads/sql/find.ts";

export type QueueQuery = { select?: Prisma.EventSubscriptionQueueSelect; include?: Prisma.EventSubscriptionQueueInclude };
export type QueueFilter = FilterValues<typeof EVENT_SUBSCRIPTION_QUEUE_CONTRACT>;
export type QueueOrder = OrderValue<typeof EVENT_SUBSCRIPTION_QUEUE_CONTRACT>;

const visibleQueues = (ctx: Context): Prisma.EventSubscriptionQueueWhereInput => ({ subscription: visibleSubscriptions(ctx) });

export async function listEventSubscriptionQueues(
  ctx: Context,
  args: ListRequest<typeof EVENT_SUBSCRIPTION_QUEUE_CONTRACT>,
  query: QueueQuery = {},
): Promise<Connection<EventSubscriptionQueue>> {
  return listPage(ctx.db, "eventSubscriptionQueue", EVENT_SUBSCRIPTION_QUEUE_CONTRACT, { visible: visibleQueues(ctx), request: args, query });
}

export function getEventSubscriptionQueue(ctx: Context, uuid: string, query: QueueQuery = {}) {
  const visible = visibleQueues(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "eventSubscriptionQueue", { ...query, where: { AND: [{ id }, visible] } }));
}

/**
 * Waldur's `create_queue`: the queue of one offering and type under the subscription, declared on the broker with
 * Waldur's arguments every time (idempotent); `created` is false when the row existed.
 */
export async function createEventSubscriptionQueue(
  ctx: Context,
  subscriptionUuid: string,
  input: { offeringUuid: string; objectType: string },
  query: QueueQuery = {},
) {
  const subscription = await getEventSubscription(ctx, subscriptionUuid, { select: { id: true, userId: true } });
  const broker = configuredBroker(ctx);
  const offeringId = parseUuid(input.offeringUuid);
  if (!offeringId) throw fieldError("offeringUuid", "Must be a valid UUID.");
  if (!isObservableObjectType(input.objectType)) throw fieldError("objectType", `"${input.objectType}" is not a valid choice.`);
  const offering = await findUnique(ctx.db, "offering", { where: { id: offeringId }, select: { id: true } });
  if (!offering) throw fieldError("offeringUuid", `Offering with UUID ${input.offeringUuid} does not exist`);
  const visible = await count(ctx.db, "offering", { AND: [{ id: offeringId }, await visibleOfferings(ctx)] });
  if (!visible) throw fieldError("offeringUuid", "You do not have access to this offering");
  const key = { subscriptionId: subscription.id, offeringId, objectType: input.objectType };
  await provisioned("queue", () => broker.ensureQueue(vhostOf(subscription.userId), subscriptionQueueName(subscription.id, offeringId, input.objectType)));
  const existing = await findUnique(ctx.db, "eventSubscriptionQueue", { where: { subscriptionId_offeringId_objectType: key }, select: { id: true } });
  const row = await ctx.db.eventSubscriptionQueue.upsert({
    where: { subscriptionId_offeringId_objectType: key },
    create: { ...key, created: ctx.now() },
    update: {},
    ...query,
  });
  return { queue: row, created: !existing };
}

/** Removes the queue's row and the broker queue with it. */
export async function deleteEventSubscriptionQueue(ctx: Context, uuid: string) {
  const visible = visibleQueues(ctx);
  const queue = await visibleOne(uuid, (id) =>
    findFirst(ctx.db, "eventSubscriptionQueue", { where: { AND: [{ id }, visible] }, include: { subscription: { select: { userId: true } } } }),
  );
  await ctx.db.eventSubscriptionQueue.delete({ where: { id: queue.id } });
  await ctx.broker?.management.deleteQueue(vhostOf(queue.subscription.userId), subscriptionQueueName(queue.subscriptionId, queue.offeringId, queue.objectType)).catch(() => undefined);
  return queue.id;
}
