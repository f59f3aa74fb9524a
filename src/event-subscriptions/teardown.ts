import type { AppDeps } from "../context.ts";
import { toHex } from "../platform/ids.ts";
import { subscriptionQueueName, vhostOf } from "./naming.ts";

interface RemovedSubscription {
  id: string;
  userId: string;
  queues: Array<{ offeringId: string; objectType: string }>;
}

/**
 * Takes the broker state of deleted subscriptions away: their logins and queues, and the vhost of a user left with
 * none. Best effort: what the broker refuses now, the periodic sweep (./sweep.ts) removes later.
 */
export async function removeBrokerLogins(deps: Pick<AppDeps, "db" | "broker">, removed: RemovedSubscription[]) {
  const broker = deps.broker?.management;
  if (!broker || removed.length === 0) return;
  await Promise.allSettled(
    removed.flatMap((subscription) => [
      broker.deleteUser(toHex(subscription.id)),
      ...subscription.queues.map((q) => broker.deleteQueue(vhostOf(subscription.userId), subscriptionQueueName(subscription.id, q.offeringId, q.objectType))),
    ]),
  );
  const userIds = [...new Set(removed.map((s) => s.userId))];
  const [subscribed, consuming] = await Promise.all([
    deps.db.eventSubscription.findMany({ where: { userId: { in: userIds } }, select: { userId: true }, distinct: ["userId"] }),
    deps.db.agentConsumerQueue.findMany({ where: { userId: { in: userIds } }, select: { userId: true }, distinct: ["userId"] }),
  ]);
  const still = new Set([...subscribed, ...consuming].map((row) => row.userId));
  await Promise.allSettled(userIds.filter((id) => !still.has(id)).map((id) => broker.deleteVhost(vhostOf(id))));
}

/** Subscriptions whose token was revoked, expired or deleted: removed with their broker logins. */
export async function removeSubscriptionsOfTokens(deps: Pick<AppDeps, "db" | "broker">, tokenDigests: string[] | "gone") {
  const where = tokenDigests === "gone" ? {} : { tokenDigest: { in: tokenDigests } };
  const candidates = await deps.db.eventSubscription.findMany({
    where,
    select: { id: true, userId: true, tokenDigest: true, queues: { select: { offeringId: true, objectType: true } } },
  });
  if (candidates.length === 0) return 0;
  const live = new Set(
    (await deps.db.authToken.findMany({ where: { keyDigest: { in: [...new Set(candidates.map((c) => c.tokenDigest))] } }, select: { keyDigest: true } })).map(
      (t) => t.keyDigest,
    ),
  );
  const removed = candidates.filter((c) => !live.has(c.tokenDigest));
  if (removed.length === 0) return 0;
  const { count } = await deps.db.eventSubscription.deleteMany({ where: { id: { in: removed.map((s) => s.id) }, tokenDigest: { notIn: [...live] } } });
  await removeBrokerLogins(deps, removed);
  return count;
}
