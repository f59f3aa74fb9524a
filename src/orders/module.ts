import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import "./schema-actions.ts";
import { orderRest } from "./rest.ts";

export const ordersModule = defineModule({
  name: "orders",
  rest: [orderRest],
  tallies: [],
  topics: ["orderChanged"],
});
