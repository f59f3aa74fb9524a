import { labelledValues } from "../graphql/labelled-values.ts";
import type { OrderState } from "../generated/prisma/client.ts";
import { builder } from "../graphql/builder.ts";
import { toHex } from "../platform/ids.ts";
import { canTransition } from "../platform/state-machine.ts";
import { REQUEST_TYPE_LABELS } from "./states.ts";
import { OrderStateEnum } from "../resources/schema.ts";
import { orderRule } from "./transitions.ts";
import { getOrder, visibleOrderIds } from "./service.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { showing } from "../directory/schema-shown-through.ts";
import "./order-presentation.ts";

export const OrderTypeEnum = builder.enumType("OrderType", {
  description: "Waldur's request types; RESTORE is Waldur's own and no order here has it",
  values: labelledValues(REQUEST_TYPE_LABELS),
});

const dateOnly = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

/** Waldur's can_terminate: the order could be canceled now. */
function canTerminate(state: OrderState, offeringType: string) {
  const cancel = orderRule("cancel");
  return canTransition(cancel, state) && (cancel.effect?.offeringTypes ?? []).includes(offeringType);
}

export const OrderRef = builder.prismaNode("Order", {
  ...visibleNode(getOrder, { type: "Order", visibleAmong: visibleOrderIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (o) => toHex(o.id) }),
    type: t.expose("type", { type: OrderTypeEnum }),
    state: t.expose("state", { type: OrderStateEnum }),
    attributes: t.expose("attributes", { type: "JSON" }),
    limits: t.expose("limits", { type: "JSON" }),
    startDate: t.string({ nullable: true, description: "YYYY-MM-DD", resolve: (o) => dateOnly(o.startDate) }),
    requestComment: t.exposeString("requestComment"),
    backendId: t.exposeString("backendId"),
    errorMessage: t.exposeString("errorMessage"),
    errorTraceback: t.exposeString("errorTraceback"),
    completedAt: t.expose("completedAt", { type: "DateTime", nullable: true }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
    canTerminate: t.boolean({
      description: "Whether the order can be canceled now (its state and offering type allow it)",
      select: { offering: { select: { type: true } } },
      resolve: (o) => canTerminate(o.state, o.offering.type),
    }),
    autoApproved: t.boolean({ description: "Always false: no auto-approval rules here", resolve: () => false }),
    cost: t.string({
      nullable: true,
      description: "Decimal string: the plan's price (no component is priced here); null without a plan",
      select: { plan: { select: { unitPrice: true } } },
      resolve: (o) => o.plan?.unitPrice.toFixed(10) ?? null,
    }),
    offering: t.relation("offering"),
    plan: t.relation("plan", { nullable: true }),
    resource: t.relation("resource", { nullable: true }),
    // What Waldur's order shows of its project and people to whoever may see the order (the provider among them).
    project: showing(t.relation("project"), ["description"]),
    createdBy: showing(t.relation("createdBy", { nullable: true }), ["email", "fullName"]),
    consumerReviewedBy: showing(t.relation("consumerReviewedBy", { nullable: true }), ["fullName"]),
    consumerReviewedAt: t.expose("consumerReviewedAt", { type: "DateTime", nullable: true }),
    providerReviewedBy: showing(t.relation("providerReviewedBy", { nullable: true }), ["fullName"]),
    providerReviewedAt: t.expose("providerReviewedAt", { type: "DateTime", nullable: true }),
  }),
});
