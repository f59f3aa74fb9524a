import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import "./schema-consents.ts";
import { termsOfServiceRest } from "./rest.ts";

export const termsOfServiceModule = defineModule({
  name: "terms-of-service",
  rest: [termsOfServiceRest],
  tallies: [],
  topics: [],
});
