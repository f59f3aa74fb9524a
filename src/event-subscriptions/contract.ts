import type { Prisma } from "../generated/prisma/client.ts";
import { defineContract } from "../collections/contract.ts";

export const EVENT_SUBSCRIPTION_CONTRACT = defineContract<Prisma.EventSubscriptionWhereInput, Prisma.EventSubscriptionOrderByWithRelationInput>()({
  filters: {
    userUuid: { kind: "uuids", rest: { user_uuid: "uuid" }, where: (ids) => ({ userId: { in: ids } }) },
    userUsername: { kind: "text", rest: "user_username", description: "Exact", where: (username) => ({ user: { username } }) },
  },
  orderings: { created: (direction) => ({ created: direction }) },
  defaultOrder: ["-created"],
  tiebreak: [{ id: "asc" }],
});

export const EVENT_SUBSCRIPTION_QUEUE_CONTRACT = defineContract<
  Prisma.EventSubscriptionQueueWhereInput,
  Prisma.EventSubscriptionQueueOrderByWithRelationInput
>()({
  filters: {
    eventSubscriptionUuid: { kind: "uuids", rest: { event_subscription_uuid: "uuid" }, where: (ids) => ({ subscriptionId: { in: ids } }) },
    offeringUuid: { kind: "uuids", rest: { offering_uuid: "uuid" }, where: (ids) => ({ offeringId: { in: ids } }) },
    objectType: { kind: "text", rest: "object_type", description: "Exact", where: (objectType) => ({ objectType }) },
  },
  orderings: { created: (direction) => ({ created: direction }) },
  defaultOrder: ["-created"],
  tiebreak: [{ id: "asc" }],
});
