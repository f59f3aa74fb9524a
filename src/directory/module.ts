import { defineModule } from "../domain-module.ts";
import "./schema-types.ts";
import "./schema.ts";
import "./schema-viewer.ts";
import { directoryRest } from "./rest.ts";
import { planRest } from "./rest-plans.ts";

export const directoryModule = defineModule({
  name: "directory",
  rest: [directoryRest, planRest],
  tallies: [],
  topics: [],
});
