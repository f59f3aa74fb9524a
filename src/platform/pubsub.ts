import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { createPubSub } from "graphql-yoga";
import { Redis } from "ioredis";

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

export type Topics = {
  offeringUserChanged: OfferingUserChangedPayload;
  eventCreated: EventCreatedPayload;
};

export interface PubSub {
  publish<K extends keyof Topics>(topic: K, payload: Topics[K]): void;
  subscribe<K extends keyof Topics>(topic: K): AsyncIterable<Topics[K]>;
}

/** Topics are namespaced by `prefix`, so several deployments (or test runs) can share one Redis. */
function namespaced(inner: ReturnType<typeof createPubSub<Record<string, [unknown]>>>, prefix: string): PubSub {
  return {
    publish: (topic, payload) => inner.publish(`${prefix}:${topic}`, payload),
    subscribe: (topic) => inner.subscribe(`${prefix}:${topic}`) as AsyncIterable<never>,
  };
}

export interface PubSubHandle {
  pubsub: PubSub;
  close(): Promise<void>;
}

export function openPubSub(redisUrl: string | undefined, prefix = "gateway"): PubSubHandle {
  if (!redisUrl) return { pubsub: namespaced(createPubSub(), prefix), close: async () => {} };
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false });
  const eventTarget = createRedisEventTarget<never>({ publishClient, subscribeClient });
  return {
    pubsub: namespaced(createPubSub({ eventTarget }), prefix),
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
