import type { OrderState } from "../generated/prisma/client.ts";
import { builder } from "../graphql/builder.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import { canTransition } from "../platform/state-machine.ts";
import { BILLING_UNITS, ORDER_STATE_LABELS, orderStateLabel, orderTypeLabel, REQUEST_TYPE_LABELS } from "./states.ts";
import { orderRule } from "./transitions.ts";
import { getOrder, visibleOrderIds } from "./service.ts";
import { visibleNode } from "../graphql/nodes.ts";

const labelled = <K extends string>(labels: Record<K, string>) =>
  Object.fromEntries(Object.entries(labels).map(([value, label]) => [value, { description: `REST label "${label}"` }])) as Record<K, { description: string }>;

export const OrderStateEnum = builder.enumType("OrderState", { values: labelled(ORDER_STATE_LABELS) });
export const OrderTypeEnum = builder.enumType("OrderType", {
  description: "Waldur's request types; RESTORE is Waldur's own and no order here has it",
  values: labelled(REQUEST_TYPE_LABELS),
});

type Person = { username: string; firstName: string; lastName: string } | null;
const fullName = (u: Person) => (u ? `${u.firstName} ${u.lastName}`.trim() : "");
const dateOnly = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);
const PERSON = { select: { username: true, firstName: true, lastName: true } } as const;

/** Waldur's can_terminate: the order could be canceled now. */
function canTerminate(state: OrderState, offeringType: string) {
  const cancel = orderRule("cancel");
  return canTransition(cancel, state) && (cancel.effect?.offeringTypes ?? []).includes(offeringType);
}

export const OrderRef = builder.prismaNode("Order", {
  ...visibleNode(getOrder, { type: "Order", visibleAmong: visibleOrderIds }),
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
    canTerminate: t.boolean({
      description: "Whether the order can be canceled now (its state and offering type allow it)",
      select: { offering: { select: { type: true } } },
      resolve: (o) => canTerminate(o.state, o.offering.type),
    }),
    autoApproved: t.boolean({ description: "Always false: no auto-approval rules here", resolve: () => false }),
    offering: t.relation("offering"),
    offeringUuid: t.string({ resolve: (o) => toHex(o.offeringId) }),
    offeringUrl: t.string({ resolve: (o, _a, ctx) => apiUrl(ctx, "offering", o.offeringId) }),
    offeringName: t.string({ select: { offering: { select: { name: true } } }, resolve: (o) => o.offering.name }),
    offeringSlug: t.string({ select: { offering: { select: { slug: true } } }, resolve: (o) => o.offering.slug }),
    offeringType: t.string({ select: { offering: { select: { type: true } } }, resolve: (o) => o.offering.type }),
    offeringDescription: t.string({ select: { offering: { select: { description: true } } }, resolve: (o) => o.offering.description }),
    offeringPluginOptions: t.field({
      type: "JSON",
      select: { offering: { select: { pluginOptions: true } } },
      resolve: (o) => o.offering.pluginOptions,
    }),
    providerUuid: t.string({ select: { offering: { select: { customerId: true } } }, resolve: (o) => toHex(o.offering.customerId) }),
    providerName: t.string({
      select: { offering: { select: { customer: { select: { name: true } } } } },
      resolve: (o) => o.offering.customer.name,
    }),
    providerSlug: t.string({
      select: { offering: { select: { customer: { select: { slug: true } } } } },
      resolve: (o) => o.offering.customer.slug,
    }),
    providerDescription: t.string({
      description: "The service provider's description",
      select: { offering: { select: { customer: { select: { serviceProvider: { select: { description: true } } } } } } },
      resolve: (o) => o.offering.customer.serviceProvider?.description ?? "",
    }),
    plan: t.relation("plan", { nullable: true }),
    planUuid: t.string({ nullable: true, resolve: (o) => (o.planId ? toHex(o.planId) : null) }),
    planUrl: t.string({ description: "Empty without a plan", resolve: (o, _a, ctx) => (o.planId ? apiUrl(ctx, "plan", o.planId) : "") }),
    planName: t.string({ nullable: true, select: { plan: { select: { name: true } } }, resolve: (o) => o.plan?.name ?? null }),
    planUnit: t.string({
      nullable: true,
      description: "One of Waldur's billing units, else null",
      select: { plan: { select: { unit: true } } },
      resolve: (o) => (o.plan && BILLING_UNITS.includes(o.plan.unit) ? o.plan.unit : null),
    }),
    cost: t.string({
      nullable: true,
      description: "Decimal string: the plan's price (no component is priced here); null without a plan",
      select: { plan: { select: { unitPrice: true } } },
      resolve: (o) => o.plan?.unitPrice.toFixed(10) ?? null,
    }),
    resource: t.relation("resource", { nullable: true }),
    resourceUuid: t.string({ nullable: true, resolve: (o) => (o.resourceId ? toHex(o.resourceId) : null) }),
    resourceName: t.string({ select: { resource: { select: { name: true } } }, resolve: (o) => o.resource?.name ?? "" }),
    project: t.relation("project"),
    projectUuid: t.string({ resolve: (o) => toHex(o.projectId) }),
    projectUrl: t.string({ resolve: (o, _a, ctx) => apiUrl(ctx, "project", o.projectId) }),
    projectName: t.string({ select: { project: { select: { name: true } } }, resolve: (o) => o.project.name }),
    projectSlug: t.string({ select: { project: { select: { slug: true } } }, resolve: (o) => o.project.slug }),
    projectDescription: t.string({ select: { project: { select: { description: true } } }, resolve: (o) => o.project.description }),
    customerUuid: t.string({ select: { project: { select: { customerId: true } } }, resolve: (o) => toHex(o.project.customerId) }),
    customerName: t.string({
      select: { project: { select: { customer: { select: { name: true } } } } },
      resolve: (o) => o.project.customer.name,
    }),
    customerSlug: t.string({
      select: { project: { select: { customer: { select: { slug: true } } } } },
      resolve: (o) => o.project.customer.slug,
    }),
    createdByUsername: t.string({ select: { createdBy: PERSON }, resolve: (o) => o.createdBy?.username ?? "" }),
    createdByFullName: t.string({ select: { createdBy: PERSON }, resolve: (o) => fullName(o.createdBy) }),
    createdByEmail: t.string({
      nullable: true,
      select: { createdBy: { select: { email: true } } },
      resolve: (o) => o.createdBy?.email ?? null,
    }),
    consumerReviewedBy: t.string({
      nullable: true,
      description: "Username",
      select: { consumerReviewedBy: PERSON },
      resolve: (o) => o.consumerReviewedBy?.username ?? null,
    }),
    consumerReviewedByFullName: t.string({
      nullable: true,
      select: { consumerReviewedBy: PERSON },
      resolve: (o) => (o.consumerReviewedBy ? fullName(o.consumerReviewedBy) : null),
    }),
    consumerReviewedAt: t.expose("consumerReviewedAt", { type: "DateTime", nullable: true }),
    providerReviewedBy: t.string({
      nullable: true,
      description: "Username",
      select: { providerReviewedBy: PERSON },
      resolve: (o) => o.providerReviewedBy?.username ?? null,
    }),
    providerReviewedByFullName: t.string({
      nullable: true,
      select: { providerReviewedBy: PERSON },
      resolve: (o) => (o.providerReviewedBy ? fullName(o.providerReviewedBy) : null),
    }),
    providerReviewedAt: t.expose("providerReviewedAt", { type: "DateTime", nullable: true }),
  }),
});
