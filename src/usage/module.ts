import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import "./schema-user-limits.ts";
import "./schema-totals.ts";
import { usageRest } from "./rest.ts";
import { userUsageLimitRest } from "./rest-user-limits.ts";

export const usageModule = defineModule({
  name: "usage",
  rest: [usageRest, userUsageLimitRest],
  tallies: [],
  topics: [],
});
