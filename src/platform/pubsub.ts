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
  offeringUserChanged: [OfferingUserChangedPayload];
  eventCreated: [EventCreatedPayload];
};

export type PubSub = ReturnType<typeof createPubSub<Topics>>;

export interface PubSubHandle {
  pubsub: PubSub;
  close(): Promise<void>;
}

export function openPubSub(redisUrl: string | undefined): PubSubHandle {
  if (!redisUrl) return { pubsub: createPubSub<Topics>(), close: async () => {} };
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false });
  const eventTarget = createRedisEventTarget<never>({ publishClient, subscribeClient });
  return {
    pubsub: createPubSub<Topics>({ eventTarget }),
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
