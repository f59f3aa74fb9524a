import { type NarrowingCases, splits, storage, uuidOf } from "../../test/support/narrowing-cases.ts";

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/event-subscriptions/": {
    parameters: {
      user_uuid: uuidOf((d) => d.alice), user_username: splits("split.alice"),
    },
  },
  "/api/event-subscription-queues/": {
    parameters: {
      event_subscription_uuid: uuidOf((d) => d.aliceOrders), offering_uuid: uuidOf(storage), object_type: splits("order"),
    },
  },
};
