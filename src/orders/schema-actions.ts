import { builder } from "../graphql/builder.ts";
import { AvailableTransitionRef } from "../graphql/transitions.ts";
import { availableOrderActions } from "./available-actions.ts";
import { ORDER_CORE } from "./changes.ts";

builder.prismaObjectField("Order", "availableTransitions", (t) =>
  t.field({
    type: [AvailableTransitionRef],
    description: "The actions the order's state and offering type allow now, and whether the viewer may run each",
    select: ORDER_CORE,
    resolve: (order, _args, ctx) => availableOrderActions(ctx, order),
  }),
);
