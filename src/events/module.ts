import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import { eventRest } from "./rest.ts";
import { EVENT_TALLIES, EVENT_AUDIENCE_TALLIES, EVENT_USER_TALLIES } from "./tallies.ts";

export const eventsModule = defineModule({
  name: "events",
  rest: [eventRest],
  tallies: [EVENT_TALLIES, EVENT_AUDIENCE_TALLIES, EVENT_USER_TALLIES],
  topics: ["eventCreated"],
});
