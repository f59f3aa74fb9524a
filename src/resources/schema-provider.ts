import type { GraphQLResolveInfo } from "graphql";
import type { Resource, ResourceState } from "../generated/prisma/client.ts";
import { builder } from "../graphql/builder.ts";
import { nestedQuery } from "../graphql/nested-query.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import * as backend from "./backend.ts";
import { OfferingUserStateEnum } from "../offering-users/schema.ts";
import { stateLabel as offeringUserStateLabel } from "../offering-users/states.ts";
import { resourceTeam, type TeamMember } from "./team.ts";
import { setMembershipSyncStatuses } from "./membership-sync.ts";
import { transitionResource } from "./state-actions.ts";
import { ResourceStateEnum } from "./schema.ts";
import "./schema-derived.ts";

const dateOnly = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

builder.prismaObjectFields("Resource", (t) => ({
  slug: t.exposeString("slug"),
  projectSlug: t.string({ select: { project: { select: { slug: true } } }, resolve: (r) => r.project.slug }),
  customerSlug: t.string({ select: { project: { select: { customer: { select: { slug: true } } } } }, resolve: (r) => r.project.customer.slug }),
  projectEndDate: t.string({
    nullable: true,
    description: "YYYY-MM-DD",
    select: { project: { select: { endDate: true } } },
    resolve: (r) => dateOnly(r.project.endDate),
  }),
  offeringBackendId: t.string({ select: { offering: { select: { backendId: true } } }, resolve: (r) => r.offering.backendId }),
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
    url: t.string({ description: "The user's URL", resolve: (m, _a, ctx) => apiUrl(ctx, "user", m.userId) }),
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
    offeringUserStateLabel: t.string({ nullable: true, resolve: (m) => (m.offeringUserState ? offeringUserStateLabel(m.offeringUserState) : null) }),
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
        resolve: (query, r, _args, ctx) => r.resource ?? ctx.db.resource.findUniqueOrThrow({ ...query, where: { id: r.resourceId } }),
      }),
    }),
  });

const resourceQuery = (ctx: object, info: GraphQLResolveInfo) => nestedQuery(ctx, info, "Resource", "resource");

builder.mutationFields((t) => ({
  setResourceBackendId: t.field({
    type: ResourceBackendResultRef,
    description: "The provider records the resource's id in its backend",
    args: { uuid: t.arg.id({ required: true }), backendId: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx, info) => backend.setResourceBackendId(ctx, String(args.uuid), args.backendId, resourceQuery(ctx, info)),
  }),
  setResourceBackendMetadata: t.field({
    type: ResourceBackendResultRef,
    description: "Replaces the backend metadata (a JSON object)",
    args: { uuid: t.arg.id({ required: true }), backendMetadata: t.arg({ type: "JSON", required: true }) },
    resolve: (_r, args, ctx, info) => backend.setResourceBackendMetadata(ctx, String(args.uuid), args.backendMetadata, resourceQuery(ctx, info)),
  }),
  setResourceLimits: t.field({
    type: ResourceBackendResultRef,
    description: "Replaces the limits applied on the backend (component type → number)",
    args: { uuid: t.arg.id({ required: true }), limits: t.arg({ type: "JSON", required: true }) },
    resolve: (_r, args, ctx, info) => backend.setResourceLimits(ctx, String(args.uuid), args.limits, resourceQuery(ctx, info)),
  }),
  setResourceEndDate: t.field({
    type: ResourceBackendResultRef,
    description: "The provider sets (or, with null, clears) the resource's end date (YYYY-MM-DD)",
    args: { uuid: t.arg.id({ required: true }), endDate: t.arg.string() },
    resolve: (_r, args, ctx, info) => backend.setResourceEndDate(ctx, String(args.uuid), args.endDate ?? null, resourceQuery(ctx, info)),
  }),
  refreshResourceLastSync: t.field({
    type: ResourceBackendResultRef,
    description: "Marks the resource as synchronised with its backend now",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx, info) => backend.refreshResourceLastSync(ctx, String(args.uuid), resourceQuery(ctx, info)),
  }),
}));

const ResourceStateResultRef = builder
  .objectRef<{ resourceId: string; state: ResourceState; resource?: Resource }>("ResourceStateResult")
  .implement({
    fields: (t) => ({
      state: t.field({ type: ResourceStateEnum, resolve: (r) => r.state }),
      resource: t.prismaField({
        type: "Resource",
        resolve: (query, r, _args, ctx) => r.resource ?? ctx.db.resource.findUniqueOrThrow({ ...query, where: { id: r.resourceId } }),
      }),
    }),
  });

const MemberSyncReportRef = builder.objectRef<{ stored: number; skipped: string[] }>("MemberSyncReport").implement({
  fields: (t) => ({
    stored: t.exposeInt("stored", { description: "How many entries were kept" }),
    skipped: t.exposeStringList("skipped", { description: "The members (username or uuid) that named no user here" }),
  }),
});

builder.mutationFields((t) => ({
  setResourceAsOk: t.field({
    type: ResourceStateResultRef,
    description: "The provider reports the resource in order on its backend: OK, error message cleared",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx, info) => transitionResource(ctx, String(args.uuid), "setAsOk", {}, resourceQuery(ctx, info)),
  }),
  setResourceAsErred: t.field({
    type: ResourceStateResultRef,
    description: "The provider reports the resource failed on its backend: Erred, with the error",
    args: { uuid: t.arg.id({ required: true }), errorMessage: t.arg.string(), errorTraceback: t.arg.string() },
    resolve: (_r, args, ctx, info) =>
      transitionResource(ctx, String(args.uuid), "setAsErred", { errorMessage: args.errorMessage, errorTraceback: args.errorTraceback }, resourceQuery(ctx, info)),
  }),
  setResourceMembershipSyncStatuses: t.field({
    type: MemberSyncReportRef,
    description: "The site agent's full report of how each member's role reached the backend (Waldur's entry fields)",
    args: { uuid: t.arg.id({ required: true }), statuses: t.arg({ type: "JSON", required: true }) },
    resolve: (_r, args, ctx) => setMembershipSyncStatuses(ctx, String(args.uuid), args.statuses),
  }),
}));
