import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import { eventSubscriptionRest } from "./rest.ts";

export const eventSubscriptionsModule = defineModule({
  name: "event-subscriptions",
  rest: [eventSubscriptionRest],
  tallies: [],
  topics: [],
});
