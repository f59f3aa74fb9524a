import { Redis } from "ioredis";
import { type RedisCommand, redisTransport } from "./redis-transport.ts";
import { type Accept, type EndReason, type QueueLimits, TopicHub } from "./topic-hub.ts";

/** Payloads carry ids only: they cross instances through Redis, and each subscriber reloads what it may see. */
export interface OfferingUserChangedPayload {
  offeringUserId: string;
  offeringId: string;
  providerCustomerId: string;
  state: string;
  previousState: string | null;
  eventId: number;
}
export interface EventCreatedPayload {
  eventId: number;
  eventType: string;
}

/** A maintenance announcement (or one of its offering links) changed; `state` is null once it is deleted. */
export interface MaintenanceChangedPayload {
  maintenanceId: string;
  serviceProviderId: string;
  providerCustomerId: string;
  state: string | null;
  previousState: string | null;
  eventId: number;
}

/** An order changed (state, backend id) or was deleted; `state` is null once it is gone. */
export interface OrderChangedPayload {
  orderId: string;
  offeringId: string;
  projectId: string;
  providerCustomerId: string;
  consumerCustomerId: string;
  state: string | null;
  previousState: string | null;
  eventId: number;
}

/** A provisioned resource was created or changed state. */
export interface ResourceChangedPayload {
  resourceId: string;
  offeringId: string;
  projectId: string;
  providerCustomerId: string;
  state: string;
  previousState: string | null;
  eventId: number;
}

/** Tokens revoked or expired: every instance closes the WebSockets and SSE streams they authenticated (src/auth/tokens-sessions.ts). */
export interface TokenRevokedPayload {
  tokenDigests: string[];
  reason: "revoked" | "expired";
}

export type Topics = {
  offeringUserChanged: OfferingUserChangedPayload;
  eventCreated: EventCreatedPayload;
  orderChanged: OrderChangedPayload;
  resourceChanged: ResourceChangedPayload;
  maintenanceChanged: MaintenanceChangedPayload;
  tokenRevoked: TokenRevokedPayload;
};

export interface PubSub {
  publish<K extends keyof Topics>(topic: K, payload: Topics[K]): void;
  /** The topic's payloads that `accept` takes, in publication order, from subscription on. */
  subscribe<K extends keyof Topics>(topic: K, accept?: Accept<Topics[K]>): AsyncIterableIterator<Topics[K]>;
}

export interface PubSubOptions {
  /** Namespace of the topics, so several deployments (or test runs) can share one Redis. */
  prefix?: string;
  /** How far one subscriber may fall behind before it is dropped (SUBSCRIPTION_QUEUE_MAX_*). */
  limits?: QueueLimits;
  /** Hears connection errors (ioredis keeps reconnecting); without it ioredis prints them to stderr. */
  onRedisError?: (error: Error) => void;
  /** A change Redis did not take: subscribers on every instance miss it (this instance's are interrupted). */
  onPublishFailure?: (topic: string, error: Error) => void;
  /** A subscription the hub ended by itself (feed interrupted, subscriber too slow). */
  onSubscriptionEnded?: (reason: EndReason) => void;
}

export interface PubSubHandle {
  pubsub: PubSub;
  /** Open subscriptions, the longest subscriber queue now, and the longest one has been (see TopicHub). */
  stats(): { subscribers: number; longestQueue: number; peakQueue: number };
  close(): Promise<void>;
}

function handleOf(hub: TopicHub, prefix: string, close: () => Promise<void>): PubSubHandle {
  return {
    pubsub: {
      publish: (topic, payload) => hub.publish(`${prefix}:${topic}`, payload),
      subscribe: (topic, accept) => hub.subscribe(`${prefix}:${topic}`, accept as Accept<unknown>) as AsyncIterableIterator<never>,
    },
    stats: () => ({ subscribers: hub.size, longestQueue: hub.queues.longest, peakQueue: hub.queues.peak }),
    close,
  };
}

/**
 * In-process pub/sub, or Redis' across instances. With Redis, publishing never throws nor rejects: a write has
 * committed before it publishes, and a Redis outage must not fail it. While the subscribed connection is lost,
 * messages of other instances cannot arrive, so every local subscription is interrupted (and new ones refused)
 * until it is back; a failed publish interrupts the local subscriptions of its topic.
 */
export function openPubSub(redisUrl: string | undefined, options: PubSubOptions = {}): PubSubHandle {
  const prefix = options.prefix ?? "gateway";
  const hubOptions = { limits: options.limits, onEnded: options.onSubscriptionEnded };
  if (!redisUrl) return handleOf(new TopicHub(new EventTarget(), hubOptions), prefix, async () => {});
  const publishClient = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl);
  if (options.onRedisError) for (const client of [publishClient, subscribeClient]) client.on("error", options.onRedisError);
  const failed = (command: RedisCommand, channel: string, error: Error) => {
    hub.interrupt(channel);
    if (command === "publish") options.onPublishFailure?.(channel.slice(prefix.length + 1), error);
  };
  const hub: TopicHub = new TopicHub(redisTransport(publishClient, subscribeClient, failed), hubOptions);
  subscribeClient.on("close", () => hub.feedLost());
  subscribeClient.on("ready", () => hub.feedRestored());
  return handleOf(hub, prefix, async () => {
    publishClient.disconnect();
    subscribeClient.disconnect();
  });
}
