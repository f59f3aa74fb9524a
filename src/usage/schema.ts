import { NotFoundError, ValidationError } from "../platform/errors.ts";
import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import { dateOnly } from "./amounts.ts";
import { COMPONENT_USAGE_CONTRACT, COMPONENT_USER_USAGE_CONTRACT, MISSING_USAGE_POLICIES, missingUsagePolicyOf } from "./contract.ts";
import { setUsage, setUserUsages } from "./service-report.ts";
import * as service from "./service.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { CREATES, inputTypeName, ON_OBJECT, resultOr } from "../graphql/mutations.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { findUniqueOrThrow } from "../platform/reads/sql/find.ts";

const RESOURCE_NAMES = { select: { name: true, projectId: true, offeringId: true, offering: { select: { name: true } }, project: { select: { name: true, customerId: true, customer: { select: { name: true } } } } } } as const;

/** The resource, offering, project and customer columns both usage types carry. */
type ResourceNames = { id?: string; name: string; projectId: string; offeringId: string; offering: { name: string }; project: { name: string; customerId: string; customer: { name: string } } };
function resourceColumns<Row>(t: any, resourceOf: (row: Row) => ResourceNames, select: object) {
  const column = (resolve: (r: ResourceNames) => string) => t.string({ select, resolve: (row: Row) => resolve(resourceOf(row)) });
  return {
    resourceName: column((r) => r.name),
    offeringUuid: column((r) => toHex(r.offeringId)),
    offeringName: column((r) => r.offering.name),
    projectUuid: column((r) => toHex(r.projectId)),
    projectName: column((r) => r.project.name),
    customerUuid: column((r) => toHex(r.project.customerId)),
    customerName: column((r) => r.project.customer.name),
  };
}

export const MissingUsagePolicyEnum = builder.enumType("MissingUsagePolicy", {
  description: "What a month without a usage report records: nothing, the last reported value (a recurring report), or zero",
  values: MISSING_USAGE_POLICIES,
});

export const ComponentUsageRef = builder.prismaNode("ComponentUsage", {
  ...visibleNode(service.getComponentUsage),
  fields: (t) => ({
    uuid: t.string({ resolve: (u) => toHex(u.id) }),
    type: t.string({ select: { component: { select: { type: true } } }, resolve: (u) => u.component.type }),
    name: t.string({ select: { component: { select: { name: true } } }, resolve: (u) => u.component.name }),
    measuredUnit: t.string({ select: { component: { select: { measuredUnit: true } } }, resolve: (u) => u.component.measuredUnit }),
    usage: t.float({ resolve: (u) => u.usage.toNumber() }),
    description: t.exposeString("description"),
    recurring: t.exposeBoolean("recurring"),
    missingUsagePolicy: t.field({ type: MissingUsagePolicyEnum, resolve: (u) => missingUsagePolicyOf(u.recurring) }),
    date: t.expose("date", { type: "DateTime" }),
    billingPeriod: t.string({ description: "YYYY-MM-DD, the first day of the month", resolve: (u) => dateOnly(u.billingPeriod) }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
    modifiedByUsername: t.string({ nullable: true, select: { modifiedBy: { select: { username: true } } }, resolve: (u) => u.modifiedBy?.username ?? null }),
    resource: t.relation("resource"),
    userUsages: t.relation("userUsages", { query: { orderBy: { username: "asc" } } }),
    ...restPresentation({
      url: t.string({ resolve: (u, _a, ctx) => apiUrl(ctx, "componentUsage", u.id) }),
      missingUsagePolicyLabel: t.string({ description: "Waldur's value: none, reuse or zero", resolve: (u) => missingUsagePolicyOf(u.recurring).toLowerCase() }),
      resourceUuid: t.string({ resolve: (u) => toHex(u.resourceId) }),
      resourceUrl: t.string({ resolve: (u, _a, ctx) => apiUrl(ctx, "providerResource", u.resourceId) }),
      ...resourceColumns(t, (u: { resource: ResourceNames }) => u.resource, { resource: RESOURCE_NAMES }),
    }),
  }),
});

export const ComponentUserUsageRef = builder.prismaNode("ComponentUserUsage", {
  ...visibleNode(service.getComponentUserUsage),
  fields: (t) => ({
    uuid: t.string({ resolve: (u) => toHex(u.id) }),
    username: t.exposeString("username"),
    usage: t.float({ resolve: (u) => u.usage.toNumber() }),
    date: t.expose("date", { type: "DateTime" }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
    backendId: t.string({ description: "Reports never carry one: always empty", resolve: () => "" }),
    offeringUser: t.relation("offeringUser", { nullable: true }),
    componentUsage: t.relation("componentUsage"),
    componentType: t.string({ select: { componentUsage: { select: { component: { select: { type: true } } } } }, resolve: (u) => u.componentUsage.component.type }),
    measuredUnit: t.string({
      select: { componentUsage: { select: { component: { select: { measuredUnit: true } } } } },
      resolve: (u) => u.componentUsage.component.measuredUnit,
    }),
    description: t.string({ select: { componentUsage: { select: { description: true } } }, resolve: (u) => u.componentUsage.description }),
    billingPeriod: t.string({ select: { componentUsage: { select: { billingPeriod: true } } }, resolve: (u) => dateOnly(u.componentUsage.billingPeriod) }),
    ...restPresentation({
      url: t.string({ resolve: (u, _a, ctx) => apiUrl(ctx, "componentUserUsage", u.id) }),
      userUrl: t.string({
        description: "The offering user; empty when the report named none (Waldur's client does not take null)",
        resolve: (u, _a, ctx) => (u.offeringUserId ? apiUrl(ctx, "offeringUser", u.offeringUserId) : ""),
      }),
      componentUsageUrl: t.string({ resolve: (u, _a, ctx) => apiUrl(ctx, "componentUsage", u.componentUsageId) }),
      componentUsageUuid: t.string({ resolve: (u) => toHex(u.componentUsageId) }),
      componentUsageDate: t.field({
        type: "DateTime",
        description: "When the component usage was reported: Waldur's `date` of a user usage",
        select: { componentUsage: { select: { date: true } } },
        resolve: (u) => u.componentUsage.date,
      }),
      resourceUuid: t.string({ select: { componentUsage: { select: { resourceId: true } } }, resolve: (u) => toHex(u.componentUsage.resourceId) }),
      ...resourceColumns(t, (u: { componentUsage: { resource: ResourceNames } }) => u.componentUsage.resource, {
        componentUsage: { select: { resource: RESOURCE_NAMES } },
      }),
    }),
  }),
});

export const componentUsageCollection = collectionFields({
  node: ComponentUsageRef, contract: COMPONENT_USAGE_CONTRACT, enums: { MissingUsagePolicy: MissingUsagePolicyEnum },
  list: service.listComponentUsages, record: service.getComponentUsage,
});

export const componentUserUsageCollection = collectionFields({
  node: ComponentUserUsageRef, contract: COMPONENT_USER_USAGE_CONTRACT,
  list: service.listComponentUserUsages, record: service.getComponentUserUsage,
});

const UsageReportInput = builder.inputType("UsageReportInput", {
  fields: (t) => ({
    type: t.string({ required: true, description: "Component type" }),
    amount: t.string({ required: true, description: "Decimal, at most 2 decimal places" }),
    description: t.string(),
    recurring: t.boolean(),
  }),
});

const UserUsageReportInput = builder.inputType("UserUsageReportInput", {
  fields: (t) => ({
    username: t.string({ required: true }),
    usage: t.string({ required: true, description: "Decimal, at most 2 decimal places" }),
    offeringUserUuid: t.id(),
    date: t.field({ type: "DateTime", description: "Report into this moment's month" }),
  }),
});

const SetComponentUsageInput = builder.inputType(inputTypeName("setComponentUsage"), {
  fields: (t) => ({
    resourceUuid: t.id({ description: "The resource (or give planPeriodUuid)" }),
    planPeriodUuid: t.id({ description: "The resource's plan period (or give resourceUuid)" }),
    usages: t.field({ type: [UsageReportInput], required: true }),
    date: t.field({ type: "DateTime", description: "Default now" }),
  }),
});

const SetComponentUserUsagesInput = builder.inputType(inputTypeName("setComponentUserUsages"), {
  fields: (t) => ({
    componentUsageUuid: t.id({ required: true }),
    usages: t.field({ type: [UserUsageReportInput], required: true }),
  }),
});

const SetComponentUsagePayload = builder.objectRef<{ ids: string[] }>("SetComponentUsagePayload").implement({
  description: "What a usage report recorded",
  fields: (t) => ({
    componentUsages: t.prismaField({
      type: ["ComponentUsage"],
      description: "The component usages reported, one per component, in the order of the report",
      resolve: (query, { ids }, _a, ctx) => Promise.all(ids.map((id) => findUniqueOrThrow(ctx.db, "componentUsage", { ...query, where: { id } }))),
    }),
  }),
});

const SetComponentUserUsagesPayload = builder.objectRef<{ ids: string[] }>("SetComponentUserUsagesPayload").implement({
  description: "What a per-user usage report recorded",
  fields: (t) => ({
    componentUserUsages: t.prismaField({
      type: ["ComponentUserUsage"],
      description: "The user usages reported, one per username and month, in the order of the report",
      resolve: (query, { ids }, _a, ctx) => Promise.all(ids.map((id) => findUniqueOrThrow(ctx.db, "componentUserUsage", { ...query, where: { id } }))),
    }),
  }),
});

builder.mutationFields((t) => ({
  setComponentUsage: t.field({
    type: SetComponentUsagePayload,
    ...resultOr(CREATES, NotFoundError),
    description: "Report usage of a resource's components for a month; a second report in the same month replaces the first",
    args: { input: t.arg({ type: SetComponentUsageInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      ids: await setUsage(ctx, {
        resource: input.resourceUuid == null ? null : String(input.resourceUuid),
        planPeriod: input.planPeriodUuid == null ? null : String(input.planPeriodUuid),
        usages: input.usages,
        date: input.date,
      }),
    }),
  }),
  setComponentUserUsages: t.field({
    type: SetComponentUserUsagesPayload,
    ...resultOr(ON_OBJECT, ValidationError),
    description: "Report per-user usage of a component usage (all or nothing)",
    args: { input: t.arg({ type: SetComponentUserUsagesInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const usages = input.usages.map((u) => ({ ...u, user: u.offeringUserUuid == null ? null : String(u.offeringUserUuid) }));
      return { ids: await setUserUsages(ctx, String(input.componentUsageUuid), usages) };
    },
  }),
}));
