import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import { siteAgentRest } from "./rest.ts";

export const siteAgentsModule = defineModule({
  name: "site-agents",
  rest: [siteAgentRest],
  tallies: [],
  topics: [],
});
