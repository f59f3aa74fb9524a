import { ConflictError, ValidationError } from "../platform/errors.ts";
import type { Context } from "../context.ts";
import type { Order, OrderState } from "../generated/prisma/client.ts";
import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { nestedQuery } from "../graphql/nested-query.ts";
import { toHex } from "../platform/ids.ts";
import type { OrderChangedPayload } from "./order-changed.ts";
import { argumentFilter } from "../events/change-filters.ts";
import { subscriberMaySee } from "../events/visibility.ts";
import { EventRef } from "../events/schema.ts";
import { createOrder } from "./service-create.ts";
import { ORDER_CONTRACT } from "./contract.ts";
import { OrderRef, OrderTypeEnum } from "./order-type.ts";
import { OrderStateEnum } from "../resources/schema.ts";
import { ORDER_ACTIONS, ORDER_TRANSITIONS, type OrderAction, type OrderEffect, OrderTransitionError } from "./transitions.ts";
import * as service from "./service.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, inputTypeName, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import { afterArgument, resumable } from "../events/resume.ts";
import { findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export { OrderRef, OrderStateEnum, OrderTypeEnum };

export const orderCollection = collectionFields({
  node: OrderRef, contract: ORDER_CONTRACT, enums: { OrderState: OrderStateEnum, OrderType: OrderTypeEnum },
  list: service.listOrders, record: service.getOrder,
});

const CreateOrderInput = builder.inputType("CreateOrderInput", {
  fields: (t) => ({
    offeringUuid: t.id({ required: true }),
    projectUuid: t.id({ required: true }),
    type: t.field({ type: OrderTypeEnum, description: "Default CREATE; RESTORE is refused" }),
    planUuid: t.id(),
    resourceUuid: t.id({ description: "The resource an UPDATE or TERMINATE order is about" }),
    attributes: t.field({ type: "JSON", description: "`name` names the new resource" }),
    limits: t.field({ type: "JSON", description: "Component type → amount" }),
    acceptingTermsOfService: t.boolean(),
    requestComment: t.string(),
    startDate: t.string({ description: "YYYY-MM-DD" }),
  }),
});

/** The result of an order action: the order's new state and, for approvals, Waldur's `detail` message. */
/** `order`: read by the service inside its transaction when the client asked for it (nestedQuery), else here. */
const resultOrder = (query: service.OrderQuery, r: { orderId: string; order?: Order }, ctx: Context) =>
  r.order ?? findUniqueOrThrow(ctx.db, "order", { ...query, where: { id: r.orderId } });

const OrderActionResultRef = builder.objectRef<{ orderId: string; state: OrderState; detail: string; order?: Order }>("OrderActionResult").implement({
  fields: (t) => ({
    detail: t.exposeString("detail"),
    state: t.field({ type: OrderStateEnum, resolve: (r) => r.state }),
    order: t.prismaField({ type: "Order", resolve: (query, r, _args, ctx) => resultOrder(query, r, ctx) }),
  }),
});

const BackendIdResultRef = builder.objectRef<{ orderId: string; changed: boolean; order?: Order }>("OrderBackendIdResult").implement({
  fields: (t) => ({
    changed: t.exposeBoolean("changed"),
    status: t.string({ resolve: (r) => (r.changed ? "Order backend_id has been changed." : "Order backend_id is not changed.") }),
    order: t.prismaField({ type: "Order", resolve: (query, r, _args, ctx) => resultOrder(query, r, ctx) }),
  }),
});

const takesFields = (effect: OrderEffect) => Boolean(effect.storesError) || effect.approves === "provider";

/** The input of an order action: the order, and what the action takes besides (see OrderEffect). */
function actionInput(action: OrderAction) {
  const { mutation, effect }: { mutation: string; effect: OrderEffect } = ORDER_TRANSITIONS[action];
  if (!takesFields(effect)) return idInput(mutation);
  return builder.inputType(inputTypeName(mutation), {
    fields: (t) => ({
      id: objectIdField(t),
      ...(effect.storesError ? { errorMessage: t.string(), errorTraceback: t.string() } : {}),
      ...(effect.approves === "provider" ? { attributes: t.field({ type: "JSON", description: "A dictionary merged into the order's attributes" }) } : {}),
    }),
  });
}

const SetOrderBackendIdInput = builder.inputType("SetOrderBackendIdInput", {
  fields: (t) => ({ id: objectIdField(t), backendId: t.string({ required: true }) }),
});

builder.mutationFields((t) => ({
  createOrder: t.prismaField({
    type: "Order",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: CreateOrderInput, required: true }) },
    resolve: (query, _root, { input }, ctx) =>
      createOrder(
        ctx,
        {
          ...input,
          offering: String(input.offeringUuid),
          project: String(input.projectUuid),
          plan: input.planUuid == null ? null : String(input.planUuid),
          resource: input.resourceUuid == null ? null : String(input.resourceUuid),
        },
        query,
      ),
  }),
  ...Object.fromEntries(
    ORDER_ACTIONS.map((action) => {
      const rule = ORDER_TRANSITIONS[action];
      const effect: OrderEffect = rule.effect;
      return [
        rule.mutation,
        t.field({
          type: OrderActionResultRef,
          ...resultOr(ON_OBJECT, OrderTransitionError, takesFields(effect) ? [ValidationError] : []),
          description: `${action}: ${rule.from.join(", ")} → ${rule.to}${effect.approves ? " (or the next approval still required)" : ""}`,
          args: { input: t.arg({ type: actionInput(action), required: true }) },
          resolve: (_root, { input: { id, ...input } }, ctx, info) =>
            service.transitionOrder(ctx, uuidOf("Order", id), action, input, nestedQuery(ctx, info, "Order", "order")),
        }),
      ];
    }),
  ),
  setOrderBackendId: t.field({
    type: BackendIdResultRef,
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: SetOrderBackendIdInput, required: true }) },
    resolve: (_root, { input }, ctx, info) =>
      service.setOrderBackendId(ctx, uuidOf("Order", input.id), input.backendId, nestedQuery(ctx, info, "Order", "order")),
  }),
  deleteOrder: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT, OrderTransitionError, ConflictError),
    description: "Only pending-consumer and pending-provider orders",
    args: { input: t.arg({ type: idInput("deleteOrder"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("Order", await service.deleteOrder(ctx, uuidOf("Order", input.id))),
  }),
  unlinkOrder: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    description: "Staff only: removes the order in any state",
    args: { input: t.arg({ type: idInput("unlinkOrder"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("Order", await service.unlinkOrder(ctx, uuidOf("Order", input.id))),
  }),
}));

const OrderChangeRef = builder.objectRef<OrderChangedPayload>("OrderChange").implement({
  fields: (t) => ({
    orderUuid: t.string({ resolve: (p) => toHex(p.orderId) }),
    state: t.field({ type: OrderStateEnum, nullable: true, description: "Null once deleted", resolve: (p) => p.state }),
    previousState: t.field({ type: OrderStateEnum, nullable: true, resolve: (p) => p.previousState }),
    order: t.prismaField({
      type: "Order",
      nullable: true,
      description: "The order as it is now; null once deleted",
      resolve: (query, p, _args, ctx) => findUnique(ctx.db, "order", { ...query, where: { id: p.orderId } }),
    }),
    event: t.field({
      type: EventRef,
      resolve: (p, _args, ctx) => findUniqueOrThrow(ctx.db, "event", { where: { id: p.eventId } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  orderChanged: t.field({
    type: OrderChangeRef,
    description: "Every change to an order the subscriber may see, after it is committed",
    args: {
      offeringUuid: t.arg.id(),
      projectUuid: t.arg.id(),
      providerUuid: t.arg.id(),
      state: t.arg({ type: [OrderStateEnum] }),
      after: t.arg.int(afterArgument),
    },
    subscribe: (_root, args, ctx) => {
      ctx.requireViewer();
      const matches = argumentFilter<OrderChangedPayload>(
        [[args.offeringUuid, (p) => p.offeringId], [args.projectUuid, (p) => p.projectId], [args.providerUuid, (p) => p.providerCustomerId]],
        args.state,
        (p) => p.state,
      );
      return resumable(ctx, "orderChanged", args.after, (p) => matches(p) && subscriberMaySee(ctx, "order", p, service.canSeeOrderChange));
    },
    resolve: (payload) => payload,
  }),
}));
