import type { AppDeps } from "../context.ts";
import { parseUuid, toHex } from "../platform/ids.ts";
import { consumerQueueName, subscriptionQueueName, vhostOf } from "./naming.ts";
import { findMany } from "../platform/reads/sql/find.ts";

interface RemovedSubscription {
  id: string;
  userId: string;
  queues: Array<{ offeringId: string; objectType: string }>;
}

/**
 * Takes the broker state of deleted subscriptions away: their logins and queues, and the vhost of a user left with
 * none. Best effort: a login the broker failed to delete now goes with the next sweep (`sweepBrokerLogins`).
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
  await removeEmptyVhosts(deps, removed.map((s) => s.userId));
}

/** Deletes the vhosts of users left with no subscription and no consumer queue. */
async function removeEmptyVhosts(deps: Pick<AppDeps, "db" | "broker">, users: string[]) {
  const broker = deps.broker?.management;
  if (!broker) return;
  const userIds = [...new Set(users)];
  const [subscribed, consuming] = await Promise.all([
    findMany(deps.db, "eventSubscription", { where: { userId: { in: userIds } }, select: { userId: true }, distinct: ["userId"] }),
    findMany(deps.db, "agentConsumerQueue", { where: { userId: { in: userIds } }, select: { userId: true }, distinct: ["userId"] }),
  ]);
  const still = new Set([...subscribed, ...consuming].map((row) => row.userId));
  await Promise.allSettled(userIds.filter((id) => !still.has(id)).map((id) => broker.deleteVhost(vhostOf(id))));
}

/** Consumer queues (`register_queue`) whose token is gone: removed with their broker logins and queues. */
async function removeConsumerQueuesOfTokens(deps: Pick<AppDeps, "db" | "broker">, where: { tokenDigest?: { in: string[] } }) {
  const candidates = await findMany(deps.db, "agentConsumerQueue", { where, select: { id: true, userId: true, tokenDigest: true, rmqUsername: true } });
  if (candidates.length === 0) return [];
  const live = await liveTokens(deps, candidates.map((c) => c.tokenDigest));
  const removed = candidates.filter((c) => !live.has(c.tokenDigest));
  await deps.db.agentConsumerQueue.deleteMany({ where: { id: { in: removed.map((q) => q.id) }, tokenDigest: { notIn: [...live] } } });
  const broker = deps.broker?.management;
  if (broker) {
    await Promise.allSettled(removed.flatMap((q) => [broker.deleteUser(q.rmqUsername), broker.deleteQueue(vhostOf(q.userId), consumerQueueName(q.id))]));
  }
  return removed;
}

const liveTokens = async (deps: Pick<AppDeps, "db">, digests: string[]) =>
  new Set((await findMany(deps.db, "authToken", { where: { keyDigest: { in: [...new Set(digests)] } }, select: { keyDigest: true } })).map((t) => t.keyDigest));

/** Subscriptions whose token was revoked, expired or deleted: removed with their broker logins. */
export async function removeSubscriptionsOfTokens(deps: Pick<AppDeps, "db" | "broker">, tokenDigests: string[] | "gone") {
  const where = tokenDigests === "gone" ? {} : { tokenDigest: { in: tokenDigests } };
  const consumers = await removeConsumerQueuesOfTokens(deps, where);
  const candidates = await findMany(deps.db, "eventSubscription", {
    where,
    select: { id: true, userId: true, tokenDigest: true, queues: { select: { offeringId: true, objectType: true } } },
  });
  const live = await liveTokens(deps, candidates.map((c) => c.tokenDigest));
  const removed = candidates.filter((c) => !live.has(c.tokenDigest));
  await deps.db.eventSubscription.deleteMany({ where: { id: { in: removed.map((s) => s.id) }, tokenDigest: { notIn: [...live] } } });
  await removeBrokerLogins(deps, removed);
  if (consumers.length && !removed.length) await removeEmptyVhosts(deps, consumers.map((q) => q.userId));
  return removed.length + consumers.length;
}

const AGENT_LOGIN = /^[0-9a-f]{32}$/;

/**
 * Deletes the broker logins that no subscription or consumer queue has any more, such as one whose deletion the
 * broker refused while it was down (its password is a revoked token). A login is ours when it is 32 hex characters
 * and its vhost is one of our users' (another deployment on the same broker keeps its own).
 */
export async function sweepBrokerLogins(deps: Pick<AppDeps, "db" | "broker">) {
  const broker = deps.broker?.management;
  if (!broker) return 0;
  const logins = (await broker.userNames()).filter((name) => AGENT_LOGIN.test(name));
  if (logins.length === 0) return 0;
  const [subscriptions, consumers] = await Promise.all([
    findMany(deps.db, "eventSubscription", { select: { id: true } }),
    findMany(deps.db, "agentConsumerQueue", { select: { rmqUsername: true } }),
  ]);
  const kept = new Set([...subscriptions.map((s) => toHex(s.id)), ...consumers.map((q) => q.rmqUsername)]);
  const candidates = logins.filter((name) => !kept.has(name));
  const vhosts = await Promise.all(candidates.map((name) => broker.vhostsOf(name)));
  const userIds = [...new Set(vhosts.flat().flatMap((vhost) => parseUuid(vhost) ?? []))];
  const ours = new Set((await findMany(deps.db, "user", { where: { id: { in: userIds } }, select: { id: true } })).map((u) => vhostOf(u.id)));
  const orphans = candidates.filter((_name, i) => vhosts[i].some((vhost) => ours.has(vhost)));
  await Promise.all(orphans.map((name) => broker.deleteUser(name)));
  return orphans.length;
}
