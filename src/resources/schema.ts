import { labelledValues } from "../graphql/labelled-values.ts";
import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import type { ResourceChangedPayload } from "./resource-changed.ts";
import { argumentFilter } from "../events/change-filters.ts";
import { subscriberMaySee } from "../events/visibility.ts";
import { EventRef } from "../events/schema.ts";
import { ORDER_STATE_LABELS } from "./order-states.ts";
import { RESOURCE_CONTRACT } from "./contract.ts";
import { RESOURCE_STATE_LABELS, resourceStateLabel } from "./states.ts";
import * as service from "./service.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { afterArgument, resumable } from "../events/resume.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { showing } from "../directory/schema-shown-through.ts";
import { findUniqueOrThrow } from "../platform/reads/sql/find.ts";

/** The states of a resource's orders (see order-states.ts); the orders' own type shows them too. */
export const OrderStateEnum = builder.enumType("OrderState", {
  values: labelledValues(ORDER_STATE_LABELS),
});

export const ResourceStateEnum = builder.enumType("ResourceState", {
  values: labelledValues(RESOURCE_STATE_LABELS),
});

const dateOnly = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

export const ResourceRef = builder.prismaNode("Resource", {
  ...visibleNode((ctx, uuid) => service.getResource(ctx, "ANY", uuid), { type: "Resource", visibleAmong: service.visibleResourceIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (r) => toHex(r.id) }),
    name: t.exposeString("name"),
    state: t.expose("state", { type: ResourceStateEnum }),
    backendId: t.exposeString("backendId"),
    attributes: t.expose("attributes", { type: "JSON" }),
    limits: t.expose("limits", { type: "JSON" }),
    currentUsages: t.expose("currentUsages", { type: "JSON", description: "Latest reported usage per component type" }),
    backendMetadata: t.expose("backendMetadata", { type: "JSON" }),
    errorMessage: t.exposeString("errorMessage"),
    endDate: t.string({ nullable: true, description: "YYYY-MM-DD", resolve: (r) => dateOnly(r.endDate) }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
    offering: t.relation("offering"),
    // Waldur's resource shows its provider the project's description and end date.
    project: showing(t.relation("project"), ["description", "endDate"]),
    plan: t.relation("plan", { nullable: true }),
    ...restPresentation({
      url: t.string({ resolve: (r, _a, ctx) => apiUrl(ctx, "providerResource", r.id) }),
      stateLabel: t.string({ description: "Waldur's display label of the state", resolve: (r) => resourceStateLabel(r.state) }),
      offeringUuid: t.string({ resolve: (r) => toHex(r.offeringId) }),
      offeringUrl: t.string({ resolve: (r, _a, ctx) => apiUrl(ctx, "offering", r.offeringId) }),
      offeringName: t.string({ select: { offering: { select: { name: true } } }, resolve: (r) => r.offering.name }),
      offeringType: t.string({ select: { offering: { select: { type: true } } }, resolve: (r) => r.offering.type }),
      offeringPluginOptions: t.field({
        type: "JSON",
        select: { offering: { select: { pluginOptions: true } } },
        resolve: (r) => r.offering.pluginOptions,
      }),
      providerUuid: t.string({ select: { offering: { select: { customerId: true } } }, resolve: (r) => toHex(r.offering.customerId) }),
      providerName: t.string({
        select: { offering: { select: { customer: { select: { name: true } } } } },
        resolve: (r) => r.offering.customer.name,
      }),
      projectUuid: t.string({ resolve: (r) => toHex(r.projectId) }),
      projectUrl: t.string({ resolve: (r, _a, ctx) => apiUrl(ctx, "project", r.projectId) }),
      projectName: t.string({ select: { project: { select: { name: true } } }, resolve: (r) => r.project.name }),
      projectDescription: t.string({ select: { project: { select: { description: true } } }, resolve: (r) => r.project.description }),
      customerUuid: t.string({ select: { project: { select: { customerId: true } } }, resolve: (r) => toHex(r.project.customerId) }),
      customerName: t.string({
        select: { project: { select: { customer: { select: { name: true } } } } },
        resolve: (r) => r.project.customer.name,
      }),
      planUuid: t.string({ nullable: true, resolve: (r) => (r.planId ? toHex(r.planId) : null) }),
      planUrl: t.string({ description: "Empty without a plan", resolve: (r, _a, ctx) => (r.planId ? apiUrl(ctx, "plan", r.planId) : "") }),
      planName: t.string({ nullable: true, select: { plan: { select: { name: true } } }, resolve: (r) => r.plan?.name ?? null }),
      scopeUrl: t.string({
        description: "The backend object (another resource); empty when there is none",
        resolve: (r, _a, ctx) => (r.scopeId ? apiUrl(ctx, "providerResource", r.scopeId) : ""),
      }),
    }),
  }),
});

const ResourceViewEnum = builder.enumType("ResourceView", {
  values: {
    PROVIDER: { description: "Resources of the offerings of the viewer's provider organisations (REST provider-resources)" },
    ANY: { description: "Also resources of the viewer's projects and consumer organisations" },
  },
});

/** Whose resources: the provider's, or any the viewer may see. */
const viewArgs = builder.args((t) => ({ view: t.field({ type: ResourceViewEnum, defaultValue: "ANY" }) }));

export const resourceCollection = collectionFields({
  node: ResourceRef, contract: RESOURCE_CONTRACT, enums: { ResourceState: ResourceStateEnum, OrderState: OrderStateEnum },
  list: { args: viewArgs, load: (ctx, request, query, { view }) => service.listResources(ctx, { view: view ?? "ANY", ...request }, query) },
  record: { args: viewArgs, load: (ctx, uuid, query, { view }) => service.getResource(ctx, view ?? "ANY", uuid, query) },
});

builder.queryFields((t) => ({
  resourceDetails: t.prismaField({
    type: "Resource",
    nullable: true,
    description: "The backend object behind a resource (provider view); null when it has none",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => service.resourceDetails(ctx, String(args.uuid), query),
  }),
}));

const ResourceChangeRef = builder.objectRef<ResourceChangedPayload>("ResourceChange").implement({
  fields: (t) => ({
    resourceUuid: t.string({ resolve: (p) => toHex(p.resourceId) }),
    state: t.field({ type: ResourceStateEnum, resolve: (p) => p.state }),
    previousState: t.field({ type: ResourceStateEnum, nullable: true, resolve: (p) => p.previousState }),
    resource: t.prismaField({
      type: "Resource",
      description: "The resource as it is now",
      resolve: (query, p, _args, ctx) => findUniqueOrThrow(ctx.db, "resource", { ...query, where: { id: p.resourceId } }),
    }),
    event: t.field({
      type: EventRef,
      resolve: (p, _args, ctx) => findUniqueOrThrow(ctx.db, "event", { where: { id: p.eventId } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  resourceChanged: t.field({
    type: ResourceChangeRef,
    description: "Every change to a resource the subscriber may see (either side), after it is committed",
    args: {
      offeringUuid: t.arg.id(),
      projectUuid: t.arg.id(),
      providerUuid: t.arg.id(),
      state: t.arg({ type: [ResourceStateEnum] }),
      after: t.arg.int(afterArgument),
    },
    subscribe: (_root, args, ctx) => {
      ctx.requireViewer();
      const matches = argumentFilter<ResourceChangedPayload>(
        [[args.offeringUuid, (p) => p.offeringId], [args.projectUuid, (p) => p.projectId], [args.providerUuid, (p) => p.providerCustomerId]],
        args.state,
        (p) => p.state,
      );
      return resumable(ctx, "resourceChanged", args.after, (p) => matches(p) && subscriberMaySee(ctx, "resource", p, service.canSeeResourceChange));
    },
    resolve: (payload) => payload,
  }),
}));
