import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import { tokenRest } from "./rest.ts";

export const tokensModule = defineModule({
  name: "tokens",
  rest: [tokenRest],
  tallies: [],
  topics: ["tokenRevoked"],
});
