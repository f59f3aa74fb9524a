import { transitionFailure } from "../graphql/errors.ts";
import { RESOURCE_TRANSITIONS, ResourceTransitionError } from "./transitions.ts";
import { ConflictError, ValidationError } from "../platform/errors.ts";
import type { GraphQLResolveInfo } from "graphql";
import type { Resource, ResourceState } from "../generated/prisma/client.ts";
import { builder } from "../graphql/builder.ts";
import { idInput, inputTypeName, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import { nestedQuery } from "../graphql/nested-query.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import * as backend from "./service-backend.ts";
import { OfferingUserStateEnum } from "../offering-users/schema.ts";
import { stateLabel as offeringUserStateLabel } from "../offering-users/states.ts";
import { resourceTeam, type TeamMember } from "./service-team.ts";
import { setMembershipSyncStatuses } from "./service-membership-sync.ts";
import { transitionResource } from "./service-state-actions.ts";
import { ResourceStateEnum } from "./schema.ts";
import "./schema-derived.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { findUniqueOrThrow } from "../platform/reads/sql/find.ts";

transitionFailure(ResourceTransitionError, "Resource", ResourceStateEnum);

const dateOnly = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

builder.prismaObjectFields("Resource", (t) => ({
  slug: t.exposeString("slug"),
  ...restPresentation({
    projectSlug: t.string({ select: { project: { select: { slug: true } } }, resolve: (r) => r.project.slug }),
    customerSlug: t.string({ select: { project: { select: { customer: { select: { slug: true } } } } }, resolve: (r) => r.project.customer.slug }),
    projectEndDate: t.string({
      nullable: true,
      description: "YYYY-MM-DD",
      select: { project: { select: { endDate: true } } },
      resolve: (r) => dateOnly(r.project.endDate),
    }),
    offeringBackendId: t.string({ select: { offering: { select: { backendId: true } } }, resolve: (r) => r.offering.backendId }),
  }),
  restrictMemberAccess: t.exposeBoolean("restrictMemberAccess"),
  paused: t.exposeBoolean("paused"),
  downscaled: t.exposeBoolean("downscaled"),
  endDateUpdatedAt: t.expose("endDateUpdatedAt", { type: "DateTime", nullable: true }),
  lastSync: t.field({
    type: "DateTime",
    description: "When the site agent last synchronised the resource (its creation until then)",
    resolve: (r) => r.lastSync ?? r.created,
  }),
}));

const TeamMemberRef = builder.objectRef<TeamMember>("ResourceTeamMember").implement({
  fields: (t) => ({
    uuid: t.string({ description: "The user's uuid", resolve: (m) => toHex(m.userId) }),
    username: t.exposeString("username"),
    fullName: t.exposeString("fullName"),
    email: t.exposeString("email"),
    role: t.exposeString("role", { description: "The project role, e.g. PROJECT.ADMIN" }),
    expirationTime: t.expose("expirationTime", { type: "DateTime", nullable: true }),
    offeringUserUsername: t.exposeString("offeringUserUsername", {
      nullable: true,
      description: "The username of the user's account on the resource's offering",
    }),
    offeringUserState: t.field({ type: OfferingUserStateEnum, nullable: true, resolve: (m) => m.offeringUserState }),
    ...restPresentation({
      url: t.string({ description: "The user's URL", resolve: (m, _a, ctx) => apiUrl(ctx, "user", m.userId) }),
      offeringUserStateLabel: t.string({ nullable: true, resolve: (m) => (m.offeringUserState ? offeringUserStateLabel(m.offeringUserState) : null) }),
    }),
  }),
});

builder.queryFields((t) => ({
  resourceTeam: t.field({
    type: [TeamMemberRef],
    description: "Who holds a current role in the resource's project (provider view)",
    args: {
      uuid: t.arg.id({ required: true }),
      hasConsent: t.arg.boolean({ description: "Only members who may (true) or may not (false) use the offering as far as its terms go" }),
    },
    resolve: (_r, args, ctx) => resourceTeam(ctx, String(args.uuid), args.hasConsent),
  }),
}));

const ResourceBackendResultRef = builder
  .objectRef<{ resourceId: string; status: string; changed: boolean; resource?: Resource }>("ResourceBackendResult")
  .implement({
    fields: (t) => ({
      status: t.exposeString("status", { description: "Waldur's status message" }),
      changed: t.exposeBoolean("changed"),
      resource: t.prismaField({
        type: "Resource",
        // Read by the service with its change when the client asked for it (nestedQuery), else here.
        resolve: (query, r, _args, ctx) => r.resource ?? findUniqueOrThrow(ctx.db, "resource", { ...query, where: { id: r.resourceId } }),
      }),
    }),
  });

const resourceQuery = (ctx: object, info: GraphQLResolveInfo) => nestedQuery(ctx, info, "Resource", "resource");

const SetResourceBackendIdInput = builder.inputType(inputTypeName("setResourceBackendId"), {
  fields: (t) => ({ id: objectIdField(t), backendId: t.string({ required: true }) }),
});
const SetResourceBackendMetadataInput = builder.inputType(inputTypeName("setResourceBackendMetadata"), {
  fields: (t) => ({ id: objectIdField(t), backendMetadata: t.field({ type: "JSON", required: true }) }),
});
const SetResourceLimitsInput = builder.inputType(inputTypeName("setResourceLimits"), {
  fields: (t) => ({ id: objectIdField(t), limits: t.field({ type: "JSON", required: true }) }),
});
const SetResourceEndDateInput = builder.inputType(inputTypeName("setResourceEndDate"), {
  fields: (t) => ({ id: objectIdField(t), endDate: t.string({ description: "YYYY-MM-DD; null clears it" }) }),
});

builder.mutationFields((t) => ({
  setResourceBackendId: t.field({
    type: ResourceBackendResultRef,
    ...resultOr(ON_OBJECT, ValidationError),
    description: "The provider records the resource's id in its backend",
    args: { input: t.arg({ type: SetResourceBackendIdInput, required: true }) },
    resolve: (_r, { input }, ctx, info) => backend.setResourceBackendId(ctx, uuidOf("Resource", input.id), input.backendId, resourceQuery(ctx, info)),
  }),
  setResourceBackendMetadata: t.field({
    type: ResourceBackendResultRef,
    ...resultOr(ON_OBJECT, ValidationError),
    description: "Replaces the backend metadata (a JSON object)",
    args: { input: t.arg({ type: SetResourceBackendMetadataInput, required: true }) },
    resolve: (_r, { input }, ctx, info) =>
      backend.setResourceBackendMetadata(ctx, uuidOf("Resource", input.id), input.backendMetadata, resourceQuery(ctx, info)),
  }),
  setResourceLimits: t.field({
    type: ResourceBackendResultRef,
    ...resultOr(ON_OBJECT, ValidationError),
    description: "Replaces the limits applied on the backend (component type → number)",
    args: { input: t.arg({ type: SetResourceLimitsInput, required: true }) },
    resolve: (_r, { input }, ctx, info) => backend.setResourceLimits(ctx, uuidOf("Resource", input.id), input.limits, resourceQuery(ctx, info)),
  }),
  setResourceEndDate: t.field({
    type: ResourceBackendResultRef,
    ...resultOr(ON_OBJECT, ValidationError),
    description: "The provider sets (or, with null, clears) the resource's end date (YYYY-MM-DD)",
    args: { input: t.arg({ type: SetResourceEndDateInput, required: true }) },
    resolve: (_r, { input }, ctx, info) => backend.setResourceEndDate(ctx, uuidOf("Resource", input.id), input.endDate ?? null, resourceQuery(ctx, info)),
  }),
  refreshResourceLastSync: t.field({
    type: ResourceBackendResultRef,
    ...resultOr(ON_OBJECT),
    description: "Marks the resource as synchronised with its backend now",
    args: { input: t.arg({ type: idInput("refreshResourceLastSync"), required: true }) },
    resolve: (_r, { input }, ctx, info) => backend.refreshResourceLastSync(ctx, uuidOf("Resource", input.id), resourceQuery(ctx, info)),
  }),
}));

const ResourceStateResultRef = builder
  .objectRef<{ resourceId: string; state: ResourceState; resource?: Resource }>("ResourceStateResult")
  .implement({
    fields: (t) => ({
      state: t.field({ type: ResourceStateEnum, resolve: (r) => r.state }),
      resource: t.prismaField({
        type: "Resource",
        resolve: (query, r, _args, ctx) => r.resource ?? findUniqueOrThrow(ctx.db, "resource", { ...query, where: { id: r.resourceId } }),
      }),
    }),
  });

const MemberSyncReportRef = builder.objectRef<{ stored: number; skipped: string[] }>("MemberSyncReport").implement({
  fields: (t) => ({
    stored: t.exposeInt("stored", { description: "How many entries were kept" }),
    skipped: t.exposeStringList("skipped", { description: "The members (username or uuid) that named no user here" }),
  }),
});

const { setAsOk: SET_AS_OK, setAsErred: SET_AS_ERRED } = RESOURCE_TRANSITIONS;

const SetResourceAsErredInput = builder.inputType(inputTypeName(SET_AS_ERRED.mutation), {
  fields: (t) => ({ id: objectIdField(t), errorMessage: t.string(), errorTraceback: t.string() }),
});
const SetResourceMembershipSyncStatusesInput = builder.inputType(inputTypeName("setResourceMembershipSyncStatuses"), {
  fields: (t) => ({ id: objectIdField(t), statuses: t.field({ type: "JSON", required: true }) }),
});

builder.mutationFields((t) => ({
  [SET_AS_OK.mutation]: t.field({
    type: ResourceStateResultRef,
    ...resultOr(ON_OBJECT, ResourceTransitionError),
    description: "The provider reports the resource in order on its backend: OK, error message cleared",
    args: { input: t.arg({ type: idInput(SET_AS_OK.mutation), required: true }) },
    resolve: (_r, { input }, ctx, info) => transitionResource(ctx, uuidOf("Resource", input.id), "setAsOk", {}, resourceQuery(ctx, info)),
  }),
  [SET_AS_ERRED.mutation]: t.field({
    type: ResourceStateResultRef,
    ...resultOr(ON_OBJECT, ResourceTransitionError, ValidationError),
    description: "The provider reports the resource failed on its backend: Erred, with the error",
    args: { input: t.arg({ type: SetResourceAsErredInput, required: true }) },
    resolve: (_r, { input }, ctx, info) => transitionResource(ctx, uuidOf("Resource", input.id), "setAsErred", input, resourceQuery(ctx, info)),
  }),
  setResourceMembershipSyncStatuses: t.field({
    type: MemberSyncReportRef,
    ...resultOr(ON_OBJECT, ValidationError, ConflictError),
    description: "The site agent's full report of how each member's role reached the backend (Waldur's entry fields)",
    args: { input: t.arg({ type: SetResourceMembershipSyncStatusesInput, required: true }) },
    resolve: (_r, { input }, ctx) => setMembershipSyncStatuses(ctx, uuidOf("Resource", input.id), input.statuses),
  }),
}));
