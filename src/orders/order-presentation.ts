import { builder } from "../graphql/builder.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import { billingUnit } from "../directory/service-plans.ts";
import { orderTypeLabel } from "./states.ts";
import { orderStateLabel } from "../resources/order-states.ts";

type Person = { username: string; firstName: string; lastName: string } | null;
const fullName = (u: Person) => (u ? `${u.firstName} ${u.lastName}`.trim() : "");
const PERSON = { select: { username: true, firstName: true, lastName: true } } as const;

/** Waldur's order serializer: links, labels, and the offering's, provider's, plan's, project's and people's fields copied onto the order. */
builder.prismaObjectFields("Order", (t) =>
  restPresentation({
    url: t.string({ resolve: (o, _a, ctx) => apiUrl(ctx, "order", o.id) }),
    typeLabel: t.string({ resolve: (o) => orderTypeLabel(o.type) }),
    stateLabel: t.string({ description: "Waldur's display label of the state", resolve: (o) => orderStateLabel(o.state) }),
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
    planUuid: t.string({ nullable: true, resolve: (o) => (o.planId ? toHex(o.planId) : null) }),
    planUrl: t.string({ description: "Empty without a plan", resolve: (o, _a, ctx) => (o.planId ? apiUrl(ctx, "plan", o.planId) : "") }),
    planName: t.string({ nullable: true, select: { plan: { select: { name: true } } }, resolve: (o) => o.plan?.name ?? null }),
    planUnit: t.string({
      nullable: true,
      description: "One of Waldur's billing units, else null",
      select: { plan: { select: { unit: true } } },
      resolve: (o) => (o.plan ? billingUnit(o.plan) : null),
    }),
    resourceUuid: t.string({ nullable: true, resolve: (o) => (o.resourceId ? toHex(o.resourceId) : null) }),
    resourceName: t.string({ select: { resource: { select: { name: true } } }, resolve: (o) => o.resource?.name ?? "" }),
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
    consumerReviewedByUsername: t.string({
      nullable: true,
      select: { consumerReviewedBy: PERSON },
      resolve: (o) => o.consumerReviewedBy?.username ?? null,
    }),
    consumerReviewedByFullName: t.string({
      nullable: true,
      select: { consumerReviewedBy: PERSON },
      resolve: (o) => (o.consumerReviewedBy ? fullName(o.consumerReviewedBy) : null),
    }),
    providerReviewedByUsername: t.string({
      nullable: true,
      select: { providerReviewedBy: PERSON },
      resolve: (o) => o.providerReviewedBy?.username ?? null,
    }),
    providerReviewedByFullName: t.string({
      nullable: true,
      select: { providerReviewedBy: PERSON },
      resolve: (o) => (o.providerReviewedBy ? fullName(o.providerReviewedBy) : null),
    }),
  }),
);
