import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import "./schema-provider.ts";
import { resourceRest } from "./rest.ts";

export const resourcesModule = defineModule({
  name: "resources",
  rest: [resourceRest],
  tallies: [],
  topics: ["resourceChanged"],
});
