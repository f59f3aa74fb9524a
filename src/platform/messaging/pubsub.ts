import { Redis } from "ioredis";
import { type RedisCommand, redisTransport } from "./redis-transport.ts";
import { type Accept, type EndReason, type Lag, type QueueLimits, type Subscription, TopicHub } from "./topic-hub.ts";

/**
 * Topics by name, each with its payload type: the caller's topic map. Payloads carry ids only: they cross instances
 * through Redis, and each subscriber reloads what it may see.
 */
export type TopicMap = object;

export interface PubSub<T extends TopicMap> {
  publish<K extends keyof T & string>(topic: K, payload: T[K]): void;
  /** The topic's payloads that `accept` takes, in publication order, from subscription on; see Lag for `lag`. */
  subscribe<K extends keyof T & string>(topic: K, accept?: Accept<T[K]>, lag?: Lag<T[K]>): Subscription<T[K]>;
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
  /** A subscription fell behind its topic (see Lag); `first`: the first time for that subscription. */
  onSubscriptionFellBehind?: (topic: string, first: boolean) => void;
}

export interface PubSubHandle<T extends TopicMap> {
  pubsub: PubSub<T>;
  /** Open subscriptions, the longest subscriber queue now, and the longest one has been (see TopicHub). */
  stats(): { subscribers: number; longestQueue: number; peakQueue: number };
  close(): Promise<void>;
}

function handleOf<T extends TopicMap>(hub: TopicHub, prefix: string, close: () => Promise<void>): PubSubHandle<T> {
  return {
    pubsub: {
      publish: (topic, payload) => hub.publish(`${prefix}:${topic}`, payload),
      subscribe: (topic, accept, lag) => hub.subscribe(`${prefix}:${topic}`, accept, lag),
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
export function openPubSub<T extends TopicMap>(redisUrl: string | undefined, options: PubSubOptions = {}): PubSubHandle<T> {
  const prefix = options.prefix ?? "gateway";
  const hubOptions = {
    limits: options.limits,
    onEnded: options.onSubscriptionEnded,
    onFellBehind: (topic: string, first: boolean) => options.onSubscriptionFellBehind?.(topic.slice(prefix.length + 1), first),
  };
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

const RESUBSCRIBE_MS = 1000;

export interface TopicFollowing {
  close(): Promise<void>;
}

export interface FollowHooks {
  /** Each subscription; `again` after an interruption, for what the gap may have lost. */
  onSubscribe?(again: boolean): void;
  /** Each feed's end (interrupted or closed). */
  onEnd?(): void;
  /** `handle` failed on a payload (the following goes on). */
  onError?(error: unknown): void;
}

/**
 * Hands every payload of `topic` to `handle`, one at a time, until closed. An interrupted feed (a Redis outage, which
 * the pub/sub reports itself) is subscribed to again a second later.
 */
export function followTopic<T extends TopicMap, K extends keyof T & string>(
  pubsub: PubSub<T>,
  topic: K,
  handle: (payload: T[K]) => unknown,
  { onSubscribe = () => {}, onEnd = () => {}, onError = () => {} }: FollowHooks = {},
): TopicFollowing {
  let closed = false;
  let feed: AsyncIterableIterator<T[K]> | undefined;
  const listen = async () => {
    for (let again = false; !closed; again = true) {
      feed = pubsub.subscribe(topic);
      onSubscribe(again);
      try {
        for await (const payload of feed) {
          try {
            await handle(payload);
          } catch (error) {
            onError(error);
          }
        }
      } catch {
        // The feed was interrupted: subscribe again.
      }
      onEnd();
      if (!closed) await new Promise((resolve) => setTimeout(resolve, RESUBSCRIBE_MS).unref());
    }
  };
  const listening = listen();
  return {
    async close() {
      closed = true;
      await feed?.return?.();
      await listening;
    },
  };
}
