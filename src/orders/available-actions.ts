import type { Context } from "../context.ts";
import { canTransition } from "../platform/state-machine.ts";
import { availableTransition } from "../graphql/transitions.ts";
import type { OrderCore } from "./changes.ts";
import { ORDER_ACTIONS, orderRule } from "./transitions.ts";
import { scopesFor } from "./visibility.ts";

/** The actions the order's state (and its offering's type) allow now, and whether the viewer may run each. */
export function availableOrderActions(ctx: Context, order: OrderCore) {
  const actions = ORDER_ACTIONS.filter((action) => {
    const rule = orderRule(action);
    return canTransition(rule, order.state) && (!rule.effect?.offeringTypes || rule.effect.offeringTypes.includes(order.offering.type));
  });
  return Promise.all(
    actions.map(async (action) => {
      const rule = orderRule(action);
      const effect = rule.effect!;
      return availableTransition(action, rule, await ctx.access.can(effect.permission, scopesFor(effect.side, order)));
    }),
  );
}
