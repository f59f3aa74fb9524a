import { toHex } from "../platform/ids.ts";

/** A subscriber's vhost: its user's uuid hex, which the agent reads from `user_uuid`. */
export const vhostOf = (userId: string) => toHex(userId);

/** Waldur's queue name, which the agent computes itself: the offering uuid without dashes, in lower case. */
export const subscriptionQueueName = (subscriptionId: string, offeringId: string, objectType: string) =>
  `subscription_${toHex(subscriptionId)}_offering_${toHex(offeringId)}_${objectType}`;

/** The one queue of a newer agent (`register_queue`). */
export const consumerQueueName = (queueId: string) => `consumer_${toHex(queueId)}`;
