import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { Redis } from "ioredis";
import { type Accept, TopicHub, type TopicTransport } from "./topic-hub.ts";

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
  /** The topic's payloads that `accept` takes, in publication order, from subscription on. */
  subscribe<K extends keyof Topics>(topic: K, accept?: Accept<Topics[K]>): AsyncIterableIterator<Topics[K]>;
}

/** Topics are namespaced by `prefix`, so several deployments (or test runs) can share one Redis. */
function namespaced(transport: TopicTransport, prefix: string): PubSub {
  const hub = new TopicHub(transport);
  return {
    publish: (topic, payload) => hub.publish(`${prefix}:${topic}`, payload),
    subscribe: (topic, accept) => hub.subscribe(`${prefix}:${topic}`, accept as Accept<unknown>) as AsyncIterableIterator<never>,
  };
}

export interface PubSubHandle {
  pubsub: PubSub;
  close(): Promise<void>;
}

/** `onRedisError` hears connection errors (ioredis keeps reconnecting); without it ioredis prints them to stderr. */
export function openPubSub(redisUrl: string | undefined, prefix = "gateway", onRedisError?: (error: Error) => void): PubSubHandle {
  if (!redisUrl) return { pubsub: namespaced(new EventTarget(), prefix), close: async () => {} };
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false });
  if (onRedisError) for (const client of [publishClient, subscribeClient]) client.on("error", onRedisError);
  const eventTarget = createRedisEventTarget<never>({ publishClient, subscribeClient });
  return {
    pubsub: namespaced(eventTarget as TopicTransport, prefix),
    close: async () => {
      // Subscriptions that end after this (a stream closing late) unsubscribe through the event target; on a
      // closed connection ioredis rejects that, unhandled. The channels go with the connection anyway.
      subscribeClient.unsubscribe = (async () => 0) as typeof subscribeClient.unsubscribe;
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
