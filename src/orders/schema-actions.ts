import { builder } from "../graphql/builder.ts";
import { transitionFailure } from "../graphql/errors.ts";
import { availableTransitionType } from "../graphql/transitions.ts";
import { OrderStateEnum } from "../resources/schema.ts";
import { OrderTransitionError } from "./transitions.ts";
import { availableOrderActions } from "./available-actions.ts";
import { ORDER_CORE } from "./changes.ts";

transitionFailure(OrderTransitionError, "Order", OrderStateEnum);
const OrderAvailableTransitionRef = availableTransitionType("Order", OrderStateEnum);

builder.prismaObjectField("Order", "availableTransitions", (t) =>
  t.field({
    type: [OrderAvailableTransitionRef],
    description: "The actions the order's state and offering type allow now, and whether the viewer may run each",
    select: ORDER_CORE,
    resolve: (order, _args, ctx) => availableOrderActions(ctx, order),
  }),
);
