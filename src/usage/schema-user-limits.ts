import { ValidationError } from "../platform/errors.ts";
import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import * as limits from "./service-user-limits.ts";
import { USER_LIMIT_CONTRACT } from "./user-limits-contract.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, inputTypeName, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";

export const ComponentUserUsageLimitRef = builder.prismaNode("ComponentUserUsageLimit", {
  ...visibleNode(limits.getUserLimit),
  fields: (t) => ({
    uuid: t.string({ resolve: (l) => toHex(l.id) }),
    resource: t.relation("resource"),
    component: t.relation("component"),
    user: t.relation("user"),
    username: t.string({ select: { user: { select: { username: true } } }, resolve: (l) => l.user.username }),
    ...restPresentation({
      url: t.string({ resolve: (l, _a, ctx) => apiUrl(ctx, "componentUserUsageLimit", l.id) }),
      resourceUuid: t.string({ resolve: (l) => toHex(l.resourceId) }),
      resourceUrl: t.string({ resolve: (l, _a, ctx) => apiUrl(ctx, "providerResource", l.resourceId) }),
      resourceName: t.string({ select: { resource: { select: { name: true } } }, resolve: (l) => l.resource.name }),
      offeringUuid: t.string({ select: { resource: { select: { offeringId: true } } }, resolve: (l) => toHex(l.resource.offeringId) }),
      componentUuid: t.string({ resolve: (l) => toHex(l.componentId) }),
      componentType: t.string({ select: { component: { select: { type: true } } }, resolve: (l) => l.component.type }),
      userUuid: t.string({ resolve: (l) => toHex(l.userId) }),
      userUrl: t.string({ resolve: (l, _a, ctx) => apiUrl(ctx, "user", l.userId) }),
    }),
    limit: t.string({ description: "Decimal with 2 decimal places", resolve: (l) => l.limit.toFixed(2) }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
  }),
});

export const componentUserUsageLimitCollection = collectionFields({
  node: ComponentUserUsageLimitRef, contract: USER_LIMIT_CONTRACT,
  list: { description: "Per-user limits of resources the caller may see (provider or consumer side)", load: limits.listUserLimits },
  record: limits.getUserLimit,
});

const CreateUserLimitInput = builder.inputType("CreateComponentUserUsageLimitInput", {
  fields: (t) => ({
    resourceUuid: t.id({ required: true }),
    componentUuid: t.id({ description: "One of the resource's offering components (this or componentType)" }),
    componentType: t.string({ description: "The type of one of the resource's offering components (this or componentUuid)" }),
    userUuid: t.id({ required: true }),
    limit: t.string({ required: true, description: "Decimal ≥ 0, at most 2 decimal places" }),
  }),
});

const UpdateUserLimitInput = builder.inputType(inputTypeName("updateComponentUserUsageLimit"), {
  fields: (t) => ({
    id: objectIdField(t),
    limit: t.string({ description: "Decimal ≥ 0; unchanged when omitted" }),
  }),
});

const idText = (value: string | number | null | undefined) => (value == null ? null : String(value));

builder.mutationFields((t) => ({
  createComponentUserUsageLimit: t.prismaField({
    type: "ComponentUserUsageLimit",
    ...resultOr(CREATES),
    description: "Caps one user's usage of a resource's component (SET_RESOURCE_LIMITS on the offering or its customer)",
    args: { input: t.arg({ type: CreateUserLimitInput, required: true }) },
    resolve: (query, _r, { input }, ctx) =>
      limits.createUserLimit(
        ctx,
        {
          resource: String(input.resourceUuid),
          component: idText(input.componentUuid),
          componentType: input.componentType,
          user: String(input.userUuid),
          limit: input.limit,
        },
        query,
      ),
  }),
  updateComponentUserUsageLimit: t.prismaField({
    type: "ComponentUserUsageLimit",
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: UpdateUserLimitInput, required: true }) },
    resolve: (query, _r, { input }, ctx) => limits.updateUserLimit(ctx, uuidOf("ComponentUserUsageLimit", input.id), { limit: input.limit }, query),
  }),
  deleteComponentUserUsageLimit: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    description: "Deletes the limit",
    args: { input: t.arg({ type: idInput("deleteComponentUserUsageLimit"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("ComponentUserUsageLimit", await limits.deleteUserLimit(ctx, uuidOf("ComponentUserUsageLimit", input.id))),
  }),
}));
