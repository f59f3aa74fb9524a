import { ValidationError } from "../platform/errors.ts";
import { builder, nullIfMissing } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import { AGENT_IDENTITY_CONTRACT } from "./contract.ts";
import * as identities from "./service.ts";
import * as registrations from "./service-registrations.ts";
import { AGENT_SERVICE_STATE_LABELS, agentCompatibility, agentServiceState, type Compatibility } from "./status.ts";
import { visibleAgentIdentities } from "./visibility.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, inputTypeName, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { findMany, findUnique } from "../platform/reads/sql/find.ts";

export const AgentProcessorRef = builder.prismaNode("AgentProcessor", {
  ...visibleNode(registrations.getAgentProcessor),
  fields: (t) => ({
    uuid: t.string({ resolve: (p) => toHex(p.id) }),
    name: t.exposeString("name"),
    backendType: t.exposeString("backendType"),
    backendVersion: t.exposeString("backendVersion", { nullable: true }),
    lastRun: t.expose("modified", { type: "DateTime", description: "When the agent last registered the processor (every loop)" }),
    service: t.relation("service"),
    ...restPresentation({
      url: t.string({ resolve: (p, _a, ctx) => apiUrl(ctx, "agentProcessor", p.id) }),
      serviceUuid: t.string({ resolve: (p) => toHex(p.serviceId) }),
      serviceName: t.string({ select: { service: { select: { name: true } } }, resolve: (p) => p.service.name }),
    }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime", description: "When the agent last registered it" }),
  }),
});

const AgentServiceStateEnum = builder.enumType("AgentServiceState", {
  values: {
    ACTIVE: { description: "Registered within the last hour" },
    IDLE: { description: "Not registered for over an hour" },
  },
});

const CompatibilityRef = builder.objectRef<Compatibility>("AgentCompatibility").implement({
  fields: (t) => ({
    status: t.exposeString("status", { description: "compatible, incompatible or unknown" }),
    message: t.exposeString("message"),
    minimumRequired: t.exposeString("minimumRequired", { nullable: true }),
  }),
});

export const AgentServiceRef = builder.prismaNode("AgentService", {
  ...visibleNode(registrations.getAgentService),
  fields: (t) => ({
    uuid: t.string({ resolve: (s) => toHex(s.id) }),
    name: t.exposeString("name"),
    mode: t.exposeString("mode"),
    state: t.field({ type: AgentServiceStateEnum, resolve: (s, _a, ctx) => agentServiceState(s.modified, ctx.now()) }),
    statistics: t.expose("statistics", { type: "JSON" }),
    identity: t.relation("identity"),
    ...restPresentation({
      url: t.string({ resolve: (s, _a, ctx) => apiUrl(ctx, "agentService", s.id) }),
      stateLabel: t.string({ resolve: (s, _a, ctx) => AGENT_SERVICE_STATE_LABELS[agentServiceState(s.modified, ctx.now())] }),
      identityUuid: t.string({ resolve: (s) => toHex(s.identityId) }),
      identityName: t.string({ select: { identity: { select: { name: true } } }, resolve: (s) => s.identity.name }),
    }),
    processors: t.relation("processors", { query: { orderBy: [{ name: "asc" }] } }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime", description: "When the agent last registered it or one of its processors" }),
  }),
});

const AgentDependencyRef = builder.objectRef<identities.AgentDependency>("AgentDependency").implement({
  fields: (t) => ({ package: t.exposeString("package"), version: t.exposeString("version") }),
});

export const AgentIdentityRef = builder.prismaNode("AgentIdentity", {
  ...visibleNode(identities.getAgentIdentity),
  fields: (t) => ({
    uuid: t.string({ resolve: (i) => toHex(i.id) }),
    name: t.exposeString("name"),
    offering: t.relation("offering"),
    version: t.exposeString("version", { nullable: true }),
    dependencies: t.field({
      type: [AgentDependencyRef],
      resolve: (i) => (Array.isArray(i.dependencies) ? (i.dependencies as identities.AgentDependency[]) : []),
    }),
    configFilePath: t.exposeString("configFilePath", { nullable: true }),
    configFileContent: t.exposeString("configFileContent", { nullable: true }),
    compatibility: t.field({
      type: CompatibilityRef,
      description: "The reported version against SITE_AGENT_MINIMUM_VERSION",
      resolve: (i, _a, ctx) => agentCompatibility(i.version, ctx.config.siteAgentMinimumVersion),
    }),
    lastRestarted: t.field({
      type: "DateTime",
      description: "The agent's last reported start (its registration until it reports one)",
      resolve: (i) => i.lastRestarted ?? i.created,
    }),
    createdBy: t.relation("createdBy", { nullable: true }),
    ...restPresentation({
      url: t.string({ resolve: (i, _a, ctx) => apiUrl(ctx, "agentIdentity", i.id) }),
      offeringUuid: t.string({ resolve: (i) => toHex(i.offeringId) }),
      offeringName: t.string({ select: { offering: { select: { name: true } } }, resolve: (i) => i.offering.name }),
      createdByUuid: t.string({ nullable: true, resolve: (i) => (i.createdById ? toHex(i.createdById) : null) }),
    }),
    services: t.relation("services", { query: { orderBy: [{ name: "asc" }] } }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime", description: "When the agent last reported itself" }),
  }),
});

builder.prismaObjectFields("Offering", (t) => ({
  agentIdentities: t.prismaField({
    type: ["AgentIdentity"],
    description: "The site agents running against this offering (empty unless the viewer is on its provider side)",
    resolve: async (query, offering, _a, ctx) =>
      findMany(ctx.db, "agentIdentity", {
        ...query,
        where: { AND: [{ offeringId: offering.id }, await visibleAgentIdentities(ctx)] },
        orderBy: [{ created: "desc" }, { id: "asc" }],
      }),
  }),
}));

export const agentIdentityCollection = collectionFields({ node: AgentIdentityRef, contract: AGENT_IDENTITY_CONTRACT, list: identities.listAgentIdentities, record: identities.getAgentIdentity });

const IdentityInput = builder.inputType("AgentIdentityInput", {
  fields: (t) => ({
    offeringUuid: t.id({ description: "Required" }),
    name: t.string({ description: "Required" }),
    version: t.string(),
    dependencies: t.field({ type: "JSON", description: 'A list of {"package", "version"} objects' }),
    configFilePath: t.string(),
    configFileContent: t.string(),
    lastRestarted: t.field({ type: "DateTime" }),
  }),
});

const RegistrationRef = builder
  .objectRef<{ serviceId?: string; processorId?: string; created: boolean }>("AgentRegistration")
  .implement({
    fields: (t) => ({
      created: t.exposeBoolean("created", { description: "False when an existing registration was refreshed" }),
      service: t.prismaField({
        type: "AgentService",
        nullable: true,
        resolve: (query, r, _a, ctx) => (r.serviceId ? findUnique(ctx.db, "agentService", { ...query, where: { id: r.serviceId } }) : null),
      }),
      processor: t.prismaField({
        type: "AgentProcessor",
        nullable: true,
        resolve: (query, r, _a, ctx) =>
          r.processorId ? findUnique(ctx.db, "agentProcessor", { ...query, where: { id: r.processorId } }) : null,
      }),
    }),
  });

const IdentityUpdateInput = builder.inputType("AgentIdentityUpdateInput", {
  fields: (t) => ({
    id: objectIdField(t),
    offeringUuid: t.id({ description: "Must stay the identity's offering" }),
    name: t.string(),
    version: t.string(),
    dependencies: t.field({ type: "JSON", description: 'A list of {"package", "version"} objects' }),
    configFilePath: t.string(),
    configFileContent: t.string(),
    lastRestarted: t.field({ type: "DateTime" }),
  }),
});

const RegisterServiceInput = builder.inputType(inputTypeName("registerAgentService"), {
  fields: (t) => ({ identityUuid: t.id({ required: true }), name: t.string({ required: true }), mode: t.string() }),
});

const RegisterProcessorInput = builder.inputType(inputTypeName("registerAgentProcessor"), {
  fields: (t) => ({
    serviceUuid: t.id({ required: true }),
    name: t.string({ required: true }),
    backendType: t.string(),
    backendVersion: t.string(),
  }),
});

const identityInput = <T extends { offeringUuid?: string | number | null }>({ offeringUuid, ...rest }: T) => ({
  ...rest,
  offeringUuid: offeringUuid == null ? undefined : String(offeringUuid),
});

builder.queryFields((t) => ({
  agentService: t.prismaField({
    nullable: true,
    type: "AgentService",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(registrations.getAgentService(ctx, String(args.uuid), query)),
  }),
  agentProcessor: t.prismaField({
    nullable: true,
    type: "AgentProcessor",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(registrations.getAgentProcessor(ctx, String(args.uuid), query)),
  }),
}));

builder.mutationFields((t) => ({
  createAgentIdentity: t.prismaField({
    type: "AgentIdentity",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: IdentityInput, required: true }) },
    resolve: (query, _r, { input }, ctx) => identities.createAgentIdentity(ctx, identityInput(input), query),
  }),
  updateAgentIdentity: t.prismaField({
    type: "AgentIdentity",
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: IdentityUpdateInput, required: true }) },
    resolve: (query, _r, { input: { id, ...input } }, ctx) => identities.updateAgentIdentity(ctx, uuidOf("AgentIdentity", id), identityInput(input), query),
  }),
  deleteAgentIdentity: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    description: "Removes the identity with its services and processors",
    args: { input: t.arg({ type: idInput("deleteAgentIdentity"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("AgentIdentity", await identities.deleteAgentIdentity(ctx, uuidOf("AgentIdentity", input.id))),
  }),
  registerAgentService: t.field({
    type: RegistrationRef,
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: RegisterServiceInput, required: true }) },
    resolve: (_r, { input }, ctx) => registrations.registerAgentService(ctx, String(input.identityUuid), input),
  }),
  registerAgentProcessor: t.field({
    type: RegistrationRef,
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: RegisterProcessorInput, required: true }) },
    resolve: (_r, { input }, ctx) => registrations.registerAgentProcessor(ctx, String(input.serviceUuid), input),
  }),
}));
