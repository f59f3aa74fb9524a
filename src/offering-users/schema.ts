import { labelledValues } from "../graphql/labelled-values.ts";
import { createOfferingUser } from "./service-create.ts";
import { ValidationError } from "../platform/errors.ts";
import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, inputTypeName, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import type { OfferingUserChangedPayload } from "./offering-user-changed.ts";
import { argumentFilter } from "../events/change-filters.ts";
import { subscriberMaySee } from "../events/visibility.ts";
import { EventRef } from "../events/schema.ts";
import { afterArgument, resumable } from "../events/resume.ts";
import { OFFERING_USER_CONTRACT, OFFERING_USER_RUNTIME_STATES, runtimeStateOf } from "./contract.ts";
import { OFFERING_USER_STATES, stateLabel } from "./states.ts";
import { OFFERING_USER_OPERATIONS, OFFERING_USER_TRANSITIONS, OfferingUserTransitionError, storesComment } from "./transitions.ts";
import * as service from "./service.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { showing } from "../directory/schema-shown-through.ts";
import { findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export const OfferingUserStateEnum = builder.enumType("OfferingUserState", {
  values: labelledValues(OFFERING_USER_STATES),
});

const OfferingUserRuntimeStateEnum = builder.enumType("OfferingUserRuntimeState", {
  values: labelledValues(OFFERING_USER_RUNTIME_STATES),
});

/**
 * What an offering user always loads (select mode), whatever the selection: its columns, which its fields read as plain
 * values with none of plugin-prisma's per-row selection checks. They include the copies of its user's and offering's
 * fields that triggers keep (prisma/schema.prisma), so a record shows them without a join.
 */
const OFFERING_USER_COLUMNS = {
  id: true, state: true, offeringId: true, userId: true, username: true, isRestricted: true, serviceProviderComment: true,
  serviceProviderCommentUrl: true, backendMetadata: true, created: true, modified: true, hasConsent: true,
  userUsername: true, userFirstName: true, userLastName: true, userEmail: true,
  offeringName: true, customerId: true, customerName: true, offeringHasActiveTerms: true,
} as const;

export const OfferingUserRef = builder.prismaNode("OfferingUser", {
  select: OFFERING_USER_COLUMNS,
  ...visibleNode(service.getOfferingUser, { type: "OfferingUser", visibleAmong: service.visibleOfferingUserIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (ou) => toHex(ou.id) }),
    state: t.field({ type: OfferingUserStateEnum, resolve: (ou) => ou.state }),
    runtimeState: t.field({ type: OfferingUserRuntimeStateEnum, description: "Read off the state", resolve: (ou) => runtimeStateOf(ou.state) }),
    username: t.string({ nullable: true, resolve: (ou) => ou.username }),
    isRestricted: t.boolean({ resolve: (ou) => ou.isRestricted }),
    serviceProviderComment: t.string({ resolve: (ou) => ou.serviceProviderComment }),
    serviceProviderCommentUrl: t.string({ resolve: (ou) => ou.serviceProviderCommentUrl }),
    backendMetadata: t.field({ type: "JSON", resolve: (ou) => ou.backendMetadata }),
    created: t.field({ type: "DateTime", resolve: (ou) => ou.created }),
    modified: t.field({ type: "DateTime", resolve: (ou) => ou.modified }),
    offering: t.relation("offering"),
    // Waldur's offering user shows its provider the user's names and email.
    user: showing(t.relation("user"), ["email", "firstName", "lastName", "fullName"]),
    ...restPresentation({
      url: t.string({ resolve: (ou, _args, ctx) => apiUrl(ctx, "offeringUser", ou.id) }),
      stateLabel: t.string({ description: "Waldur's display label of the state", resolve: (ou) => stateLabel(ou.state) }),
      runtimeStateLabel: t.string({ resolve: (ou) => OFFERING_USER_RUNTIME_STATES[runtimeStateOf(ou.state)] }),
      offeringUuid: t.string({ resolve: (ou) => toHex(ou.offeringId) }),
      offeringUrl: t.string({ resolve: (ou, _args, ctx) => apiUrl(ctx, "offering", ou.offeringId) }),
      // The record's copies of its offering's fields (kept by triggers): no join to the offering or its customer.
      offeringName: t.string({ resolve: (ou) => ou.offeringName }),
      customerUuid: t.string({ resolve: (ou) => toHex(ou.customerId) }),
      customerName: t.string({ resolve: (ou) => ou.customerName }),
      offeringHasActiveTos: t.boolean({ description: "The offering has active terms of service", resolve: (ou) => ou.offeringHasActiveTerms }),
      userUuid: t.string({ resolve: (ou) => toHex(ou.userId) }),
      userUrl: t.string({ resolve: (ou, _args, ctx) => apiUrl(ctx, "user", ou.userId) }),
      // The record's copies of its user's fields (kept by triggers): no join to the user.
      userUsername: t.string({ resolve: (ou) => ou.userUsername }),
      userFirstName: t.string({ resolve: (ou) => ou.userFirstName }),
      userLastName: t.string({ resolve: (ou) => ou.userLastName }),
      userFullName: t.string({ resolve: (ou) => `${ou.userFirstName} ${ou.userLastName}`.trim() }),
      userEmail: t.string({ resolve: (ou) => ou.userEmail }),
    }),
  }),
});

export const offeringUserCollection = collectionFields({
  node: OfferingUserRef, contract: OFFERING_USER_CONTRACT, list: service.listOfferingUsers, record: service.getOfferingUser,
  enums: { OfferingUserState: OfferingUserStateEnum, OfferingUserRuntimeState: OfferingUserRuntimeStateEnum },
});
export const OfferingUserFilterInput = offeringUserCollection.Filter;


const TransitionInputs = Object.fromEntries(
  OFFERING_USER_OPERATIONS.map((operation) => {
    const { mutation } = OFFERING_USER_TRANSITIONS[operation];
    const name = inputTypeName(mutation);
    const input = storesComment(operation)
      ? builder.inputType(name, {
          fields: (t) => ({
            id: objectIdField(t),
            comment: t.string({ description: "Stored as the service provider's comment" }),
            commentUrl: t.string({ description: "Stored as the service provider's comment URL" }),
          }),
        })
      : idInput(mutation);
    return [operation, input];
  }),
);

builder.mutationFields((t) =>
  Object.fromEntries(
    OFFERING_USER_OPERATIONS.map((operation) => {
      const rule = OFFERING_USER_TRANSITIONS[operation];
      return [
        rule.mutation,
        t.prismaField({
          type: "OfferingUser",
          ...resultOr(ON_OBJECT, OfferingUserTransitionError, storesComment(operation) ? [ValidationError] : []),
          description: `${operation}: ${rule.from.join(", ")} → ${rule.to}`,
          args: { input: t.arg({ type: TransitionInputs[operation], required: true }) },
          resolve: (query, _root, { input }, ctx) =>
            service.transitionOfferingUser(ctx, uuidOf("OfferingUser", input.id), operation, input as service.CommentInput, query),
        }),
      ];
    }),
  ),
);

const CreateOfferingUserInput = builder.inputType("CreateOfferingUserInput", {
  fields: (t) => ({
    offeringUuid: t.id({ required: true }),
    userUuid: t.id({ required: true }),
    username: t.string(),
  }),
});

const UpdateOfferingUserInput = builder.inputType("UpdateOfferingUserInput", {
  fields: (t) => ({ id: objectIdField(t), username: t.string() }),
});

const UpdateOfferingUserCommentsInput = builder.inputType("UpdateOfferingUserCommentsInput", {
  fields: (t) => ({ id: objectIdField(t), serviceProviderComment: t.string(), serviceProviderCommentUrl: t.string() }),
});

builder.mutationFields((t) => ({
  createOfferingUser: t.prismaField({
    type: "OfferingUser",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: CreateOfferingUserInput, required: true }) },
    resolve: (query, _root, { input }, ctx) =>
      createOfferingUser(ctx, { offering: String(input.offeringUuid), user: String(input.userUuid), username: input.username }, query),
  }),
  updateOfferingUser: t.prismaField({
    type: "OfferingUser",
    ...resultOr(ON_OBJECT, ValidationError, OfferingUserTransitionError),
    description: "Push back the local username; a new non-empty one moves a user still being created to OK",
    args: { input: t.arg({ type: UpdateOfferingUserInput, required: true }) },
    resolve: (query, _root, { input }, ctx) =>
      service.updateOfferingUser(ctx, uuidOf("OfferingUser", input.id), input.username === undefined ? {} : { username: input.username }, query),
  }),
  updateOfferingUserComments: t.prismaField({
    type: "OfferingUser",
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: UpdateOfferingUserCommentsInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => service.updateOfferingUserComments(ctx, uuidOf("OfferingUser", input.id), input, query),
  }),
  deleteOfferingUser: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    args: { input: t.arg({ type: idInput("deleteOfferingUser"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("OfferingUser", await service.deleteOfferingUser(ctx, uuidOf("OfferingUser", input.id))),
  }),
}));

const OfferingUserChangeRef = builder.objectRef<OfferingUserChangedPayload>("OfferingUserChange").implement({
  fields: (t) => ({
    offeringUserUuid: t.string({ resolve: (p) => toHex(p.offeringUserId) }),
    state: t.field({ type: OfferingUserStateEnum, resolve: (p) => p.state }),
    previousState: t.field({ type: OfferingUserStateEnum, nullable: true, resolve: (p) => p.previousState }),
    offeringUser: t.prismaField({
      type: "OfferingUser",
      nullable: true,
      description: "The record as it is now; null once deleted",
      resolve: (query, p, _args, ctx) => findUnique(ctx.db, "offeringUser", { ...query, where: { id: p.offeringUserId } }),
    }),
    event: t.field({
      type: EventRef,
      // Delivery already checked that the subscriber may see the change, as Waldur shows an object's events
      // to whoever can see the object; the event list's own rule would leave this non-null field empty.
      resolve: (p, _args, ctx) => findUniqueOrThrow(ctx.db, "event", { where: { id: p.eventId } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  offeringUserChanged: t.field({
    type: OfferingUserChangeRef,
    description: "Every change to an offering user the subscriber may see, after it is committed",
    args: {
      offeringUuid: t.arg.id(),
      providerUuid: t.arg.id(),
      state: t.arg({ type: [OfferingUserStateEnum] }),
      after: t.arg.int(afterArgument),
    },
    subscribe: (_root, args, ctx) => {
      ctx.requireViewer();
      const matches = argumentFilter<OfferingUserChangedPayload>(
        [[args.offeringUuid, (p) => p.offeringId], [args.providerUuid, (p) => p.providerCustomerId]],
        args.state,
        (p) => p.state,
      );
      return resumable(ctx, "offeringUserChanged", args.after, (p) => matches(p) && subscriberMaySee(ctx, "offeringUser", p, service.canSeeChange));
    },
    resolve: (payload) => payload,
  }),
}));
