import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { createPubSub } from "graphql-yoga";
import { setMaxListeners } from "node:events";
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

export type Topics = {
  offeringUserChanged: OfferingUserChangedPayload;
  eventCreated: EventCreatedPayload;
  orderChanged: OrderChangedPayload;
  resourceChanged: ResourceChangedPayload;
  maintenanceChanged: MaintenanceChangedPayload;
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

/** Every subscription is a listener of its topic; Node's default warns past ten. */
function unboundedEventTarget() {
  const target = new EventTarget();
  setMaxListeners(0, target);
  return target;
}

export interface PubSubHandle {
  pubsub: PubSub;
  close(): Promise<void>;
}

/** `onRedisError` hears connection errors (ioredis keeps reconnecting); without it ioredis prints them to stderr. */
export function openPubSub(redisUrl: string | undefined, prefix = "gateway", onRedisError?: (error: Error) => void): PubSubHandle {
  if (!redisUrl) return { pubsub: namespaced(createPubSub({ eventTarget: unboundedEventTarget() }), prefix), close: async () => {} };
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false });
  if (onRedisError) for (const client of [publishClient, subscribeClient]) client.on("error", onRedisError);
  const eventTarget = createRedisEventTarget<never>({ publishClient, subscribeClient });
  return {
    pubsub: namespaced(createPubSub({ eventTarget }), prefix),
    close: async () => {
      // Subscriptions that end after this (a stream closing late) unsubscribe through the event target; on a
      // closed connection ioredis rejects that, unhandled. The channels go with the connection anyway.
      subscribeClient.unsubscribe = (async () => 0) as typeof subscribeClient.unsubscribe;
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
