import { Permission, ROLE_PERMISSIONS, ROLE_SCOPE, ROLES } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { EventFollower } from "../events/follower.ts";
import { grantsInForce } from "../directory/grants-in-force.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { toHex } from "../platform/ids.ts";
import type { Outbox, Tx } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import type { EventType } from "../events/types.ts";
import { AGENT_MESSAGES, type AgentMessage } from "./messages.ts";
import { consumerQueueName, subscriptionQueueName, vhostOf } from "./naming.ts";
import { findMany } from "../platform/reads/sql/find.ts";

/** Roles that run an offering's site agents, by where they are held: its customer's owners and managers, its managers. */
const agentRoles = (scope: "CUSTOMER" | "OFFERING") =>
  ROLES.filter((role) => ROLE_SCOPE[role] === scope && ROLE_PERMISSIONS[role].includes(Permission.MANAGE_SITE_AGENT));
const CUSTOMER_AGENT_ROLES = agentRoles("CUSTOMER");
const OFFERING_AGENT_ROLES = agentRoles("OFFERING");

/** Active users who may see the offering from its provider side (staff too): only they receive its messages. */
function providerSide(now: Date, offering: { id: string; customerId: string }): Prisma.UserWhereInput {
  return {
    isActive: true,
    OR: [
      { isStaff: true },
      { roles: { some: { ...grantsInForce(now, "CUSTOMER", { roles: CUSTOMER_AGENT_ROLES, scopeIds: [offering.customerId] }) } } },
      { roles: { some: { ...grantsInForce(now, "OFFERING", { roles: OFFERING_AGENT_ROLES, scopeIds: [offering.id] }) } } },
    ],
  };
}

/**
 * Writes the copies of each message for every queue that should get it into the broker outbox, in the caller's
 * transaction: the subscription queues of its (offering, type) and the consumer queues of the offering's agents that
 * asked for the type, of subscribers on the offering's provider side. The relay publishes them after commit.
 */
export async function enqueueAgentMessages(tx: Tx, now: Date, messages: AgentMessage[]): Promise<number> {
  const rows: Prisma.BrokerOutboxCreateManyInput[] = [];
  for (const message of messages) {
    const { offering } = message;
    const user = providerSide(now, offering);
    const [queues, consumers] = await Promise.all([
      findMany(tx, "eventSubscriptionQueue", {
        where: { offeringId: offering.id, objectType: message.objectType, subscription: { user } },
        select: { subscriptionId: true, subscription: { select: { userId: true } } },
        orderBy: { created: "asc" },
      }),
      findMany(tx, "agentConsumerQueue", {
        where: { identity: { offeringId: offering.id }, OR: [{ objectTypes: { has: message.objectType } }, { objectTypes: { isEmpty: true } }], user },
        select: { id: true, userId: true },
      }),
    ]);
    const body = { ...message.payload, offering_uuid: toHex(offering.id) };
    for (const queue of queues) {
      const name = subscriptionQueueName(queue.subscriptionId, offering.id, message.objectType);
      rows.push({ vhost: vhostOf(queue.subscription.userId), queue: name, body: JSON.stringify(body), created: now });
    }
    for (const consumer of consumers) {
      const typed = { ...body, object_type: message.objectType };
      rows.push({ vhost: vhostOf(consumer.userId), queue: consumerQueueName(consumer.id), body: JSON.stringify(typed), created: now });
    }
  }
  if (rows.length) await tx.brokerOutbox.createMany({ data: rows });
  return rows.length;
}

/**
 * Writes what the agents should hear of `messages` and wakes the relay once the transaction commits; answers how
 * many copies were queued (none without a broker).
 */
export async function sendToAgents(ctx: Context, tx: Tx, outbox: Outbox<Topics>, messages: AgentMessage[]) {
  const broker = ctx.broker;
  const queued = broker ? await enqueueAgentMessages(tx, ctx.now(), messages) : 0;
  if (broker && queued) outbox.afterCommit(() => broker.wake());
  return queued;
}

/** Whether the agents hear of events of this type (then, with a broker, their messages commit with the event). */
export const agentsHearOf = (type: EventType) => AGENT_MESSAGES[type] !== undefined;

/** Follows every recorded event (when a broker is configured): those agents care about become broker messages. */
export const followForAgents: EventFollower["follow"] = async (ctx, tx, outbox, event) => {
  const messagesOf = AGENT_MESSAGES[event.type];
  if (!ctx.broker || !messagesOf) return;
  const messages = await messagesOf(event, tx, ctx.now());
  if (messages.length) await sendToAgents(ctx, tx, outbox, messages);
};
