import type { Context } from "../context.ts";
import { builder } from "../graphql/builder.ts";
import { nestedQuery } from "../graphql/nested-query.ts";
import { connectionType, nodesQuery, pageArgs, toPage } from "../graphql/pagination.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import type { OrderChangedPayload } from "../platform/pubsub.ts";
import { argumentFilter } from "../events/change-filters.ts";
import { subscriberMaySee } from "../events/visibility.ts";
import { EventRef } from "../events/schema.ts";
import { createOrder } from "./create.ts";
import { ORDER_ORDER } from "./filters.ts";
import { ORDER_STATE_LABELS, ORDER_TYPE_LABELS, orderStateLabel, orderTypeLabel } from "./states.ts";
import { ORDER_ACTIONS, ORDER_TRANSITIONS } from "./transitions.ts";
import * as service from "./service.ts";

const labelled = <K extends string>(labels: Record<K, string>) =>
  Object.fromEntries(Object.entries(labels).map(([value, label]) => [value, { description: `REST label "${label}"` }])) as Record<K, { description: string }>;

export const OrderStateEnum = builder.enumType("OrderState", { values: labelled(ORDER_STATE_LABELS) });
export const OrderTypeEnum = builder.enumType("OrderType", { values: labelled(ORDER_TYPE_LABELS) });

const fullName = (u: { firstName: string; lastName: string } | null) => (u ? `${u.firstName} ${u.lastName}`.trim() : "");
const dateOnly = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

export const OrderRef = builder.prismaObject("Order", {
  fields: (t) => ({
    uuid: t.string({ resolve: (o) => toHex(o.id) }),
    url: t.string({ resolve: (o, _a, ctx) => apiUrl(ctx, "order", o.id) }),
    type: t.expose("type", { type: OrderTypeEnum }),
    typeLabel: t.string({ resolve: (o) => orderTypeLabel(o.type) }),
    state: t.expose("state", { type: OrderStateEnum }),
    stateLabel: t.string({ description: "Waldur's display label of the state", resolve: (o) => orderStateLabel(o.state) }),
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
    offering: t.relation("offering"),
    offeringUuid: t.string({ resolve: (o) => toHex(o.offeringId) }),
    offeringUrl: t.string({ resolve: (o, _a, ctx) => apiUrl(ctx, "offering", o.offeringId) }),
    offeringName: t.string({ select: { offering: { select: { name: true } } }, resolve: (o) => o.offering.name }),
    offeringType: t.string({ select: { offering: { select: { type: true } } }, resolve: (o) => o.offering.type }),
    providerUuid: t.string({ select: { offering: { select: { customerId: true } } }, resolve: (o) => toHex(o.offering.customerId) }),
    providerName: t.string({
      select: { offering: { select: { customer: { select: { name: true } } } } },
      resolve: (o) => o.offering.customer.name,
    }),
    plan: t.relation("plan", { nullable: true }),
    planUuid: t.string({ nullable: true, resolve: (o) => (o.planId ? toHex(o.planId) : null) }),
    planUrl: t.string({ nullable: true, resolve: (o, _a, ctx) => (o.planId ? apiUrl(ctx, "plan", o.planId) : null) }),
    planName: t.string({ nullable: true, select: { plan: { select: { name: true } } }, resolve: (o) => o.plan?.name ?? null }),
    resource: t.relation("resource", { nullable: true }),
    resourceUuid: t.string({ nullable: true, resolve: (o) => (o.resourceId ? toHex(o.resourceId) : null) }),
    resourceName: t.string({ select: { resource: { select: { name: true } } }, resolve: (o) => o.resource?.name ?? "" }),
    project: t.relation("project"),
    projectUuid: t.string({ resolve: (o) => toHex(o.projectId) }),
    projectUrl: t.string({ resolve: (o, _a, ctx) => apiUrl(ctx, "project", o.projectId) }),
    projectName: t.string({ select: { project: { select: { name: true } } }, resolve: (o) => o.project.name }),
    customerUuid: t.string({ select: { project: { select: { customerId: true } } }, resolve: (o) => toHex(o.project.customerId) }),
    customerName: t.string({
      select: { project: { select: { customer: { select: { name: true } } } } },
      resolve: (o) => o.project.customer.name,
    }),
    createdByUsername: t.string({ select: { createdBy: { select: { username: true } } }, resolve: (o) => o.createdBy?.username ?? "" }),
    createdByFullName: t.string({
      select: { createdBy: { select: { firstName: true, lastName: true } } },
      resolve: (o) => fullName(o.createdBy),
    }),
    consumerReviewedBy: t.string({
      nullable: true,
      description: "Username",
      select: { consumerReviewedBy: { select: { username: true } } },
      resolve: (o) => o.consumerReviewedBy?.username ?? null,
    }),
    consumerReviewedAt: t.expose("consumerReviewedAt", { type: "DateTime", nullable: true }),
    providerReviewedBy: t.string({
      nullable: true,
      description: "Username",
      select: { providerReviewedBy: { select: { username: true } } },
      resolve: (o) => o.providerReviewedBy?.username ?? null,
    }),
    providerReviewedAt: t.expose("providerReviewedAt", { type: "DateTime", nullable: true }),
  }),
});

const OrderOrderEnum = builder.enumType("OrderOrder", { values: Object.keys(ORDER_ORDER) as Array<keyof typeof ORDER_ORDER> });

const OrderFilterInput = builder.inputType("OrderFilter", {
  fields: (t) => ({
    state: t.field({ type: [OrderStateEnum], description: "Any of these states" }),
    type: t.field({ type: [OrderTypeEnum], description: "Any of these types" }),
    offeringUuid: t.idList({ description: "Any of these offerings" }),
    offeringType: t.stringList(),
    providerUuid: t.id({ description: "The provider organisation (the offering's customer)" }),
    customerUuid: t.id({ description: "The consumer organisation (the project's customer)" }),
    projectUuid: t.id(),
    resourceUuid: t.id(),
    resourceName: t.string({ description: "Case-insensitive substring" }),
    createdAfter: t.field({ type: "DateTime", description: "Created at or after" }),
    modifiedAfter: t.field({ type: "DateTime", description: "Modified at or after" }),
  }),
});

const OrderConnection = connectionType("Order", OrderRef);

builder.queryFields((t) => ({
  orders: t.field({
    type: OrderConnection,
    args: { filter: t.arg({ type: OrderFilterInput }), orderBy: t.arg({ type: [OrderOrderEnum] }), ...pageArgs },
    resolve: (_root, args, ctx, info) =>
      service.listOrders(ctx, { filter: args.filter, orderBy: args.orderBy, page: toPage(args) }, nodesQuery(ctx, info, "Order")) as never,
  }),
  order: t.prismaField({
    type: "Order",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => service.getOrder(ctx, String(args.uuid), query) as never,
  }),
}));

const CreateOrderInput = builder.inputType("CreateOrderInput", {
  fields: (t) => ({
    offeringUuid: t.id({ required: true }),
    projectUuid: t.id({ required: true }),
    type: t.field({ type: OrderTypeEnum, description: "Default CREATE" }),
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
const resultOrder = (query: service.OrderQuery, r: { orderId: string; order?: unknown }, ctx: Context) =>
  (r.order ?? ctx.db.order.findUniqueOrThrow({ ...query, where: { id: r.orderId } })) as never;

const OrderActionResultRef = builder.objectRef<{ orderId: string; state: string; detail: string; order?: unknown }>("OrderActionResult").implement({
  fields: (t) => ({
    detail: t.exposeString("detail"),
    state: t.field({ type: OrderStateEnum, resolve: (r) => r.state as never }),
    order: t.prismaField({ type: "Order", resolve: (query, r, _args, ctx) => resultOrder(query, r, ctx) }),
  }),
});

const BackendIdResultRef = builder.objectRef<{ orderId: string; changed: boolean; order?: unknown }>("OrderBackendIdResult").implement({
  fields: (t) => ({
    changed: t.exposeBoolean("changed"),
    status: t.string({ resolve: (r) => (r.changed ? "Order backend_id has been changed." : "Order backend_id is not changed.") }),
    order: t.prismaField({ type: "Order", resolve: (query, r, _args, ctx) => resultOrder(query, r, ctx) }),
  }),
});

const OrderRemovalRef = builder.objectRef<{ uuid: string }>("OrderRemoval").implement({
  fields: (t) => ({ uuid: t.exposeString("uuid") }),
});

builder.mutationFields((t) => ({
  createOrder: t.prismaField({
    type: "Order",
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
      ) as never,
  }),
  ...Object.fromEntries(
    ORDER_ACTIONS.map((action) => {
      const rule = ORDER_TRANSITIONS[action];
      const effect = rule.effect as (typeof rule)["effect"] & { storesError?: boolean; approves?: string };
      return [
        effect.mutation,
        t.field({
          type: OrderActionResultRef,
          description: `${action}: ${rule.from.join(", ")} → ${rule.to}${effect.approves ? " (or the next approval still required)" : ""}`,
          args: {
            uuid: t.arg.id({ required: true }),
            ...(effect.storesError ? { errorMessage: t.arg.string(), errorTraceback: t.arg.string() } : {}),
            ...(effect.approves === "provider" ? { attributes: t.arg({ type: "JSON", description: "Merged into the order's attributes" }) } : {}),
          },
          resolve: (_root, args, ctx, info) =>
            service.transitionOrder(ctx, String(args.uuid), action, args as service.OrderActionInput, nestedQuery(ctx, info, "Order", "order")),
        }),
      ];
    }),
  ),
  setOrderBackendId: t.field({
    type: BackendIdResultRef,
    args: { uuid: t.arg.id({ required: true }), backendId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx, info) => service.setOrderBackendId(ctx, String(args.uuid), args.backendId, nestedQuery(ctx, info, "Order", "order")),
  }),
  deleteOrder: t.field({
    type: OrderRemovalRef,
    description: "Only pending-consumer and pending-provider orders",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ({ uuid: toHex(await service.deleteOrder(ctx, String(args.uuid))) }),
  }),
  unlinkOrder: t.field({
    type: OrderRemovalRef,
    description: "Staff only: removes the order in any state",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ({ uuid: toHex(await service.unlinkOrder(ctx, String(args.uuid))) }),
  }),
}));

const OrderChangeRef = builder.objectRef<OrderChangedPayload>("OrderChange").implement({
  fields: (t) => ({
    orderUuid: t.string({ resolve: (p) => toHex(p.orderId) }),
    state: t.field({ type: OrderStateEnum, nullable: true, description: "Null once deleted", resolve: (p) => p.state as never }),
    previousState: t.field({ type: OrderStateEnum, nullable: true, resolve: (p) => p.previousState as never }),
    order: t.prismaField({
      type: "Order",
      nullable: true,
      description: "The order as it is now; null once deleted",
      resolve: (query, p, _args, ctx) => ctx.db.order.findUnique({ ...query, where: { id: p.orderId } }),
    }),
    event: t.field({
      type: EventRef,
      resolve: (p, _args, ctx) => ctx.db.event.findUniqueOrThrow({ where: { id: p.eventId } }) as never,
    }),
  }),
});

builder.subscriptionFields((t) => ({
  orderChanged: t.field({
    type: OrderChangeRef,
    description: "Every change to an order the subscriber may see, after it is committed",
    args: { offeringUuid: t.arg.id(), projectUuid: t.arg.id(), providerUuid: t.arg.id(), state: t.arg({ type: [OrderStateEnum] }) },
    subscribe: (_root, args, ctx) => {
      ctx.requireViewer();
      const matches = argumentFilter<OrderChangedPayload>(
        [[args.offeringUuid, (p) => p.offeringId], [args.projectUuid, (p) => p.projectId], [args.providerUuid, (p) => p.providerCustomerId]],
        args.state,
        (p) => p.state,
      );
      return ctx.pubsub.subscribe("orderChanged", (p) => matches(p) && subscriberMaySee(ctx, "order", p, service.canSeeOrderChange));
    },
    resolve: (payload) => payload,
  }),
}));
