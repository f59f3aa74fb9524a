import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import "./schema-provider.ts";
import "./schema-dashboard.ts";
import "./schema-attention.ts";
import { offeringUserRest } from "./rest.ts";
import { OFFERING_USER_TALLIES } from "./tallies.ts";

export const offeringUsersModule = defineModule({
  name: "offering-users",
  rest: [offeringUserRest],
  tallies: [OFFERING_USER_TALLIES],
  topics: ["offeringUserChanged"],
});
