import { ConflictError, ValidationError } from "../platform/errors.ts";
import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { idInput, inputTypeName, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import { EVENT_SUBSCRIPTION_CONTRACT, EVENT_SUBSCRIPTION_QUEUE_CONTRACT } from "./contract.ts";
import { subscriptionQueueName, vhostOf } from "./naming.ts";
import { OBSERVABLE_OBJECT_TYPES } from "./object-types.ts";
import * as consumerQueues from "./service-consumer-queues.ts";
import * as queues from "./service-queues.ts";
import * as subscriptions from "./service.ts";
import * as sync from "./service-sync.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { findUniqueOrThrow } from "../platform/reads/sql/find.ts";

const ObservableObjectRef = builder.objectRef<{ objectType: string }>("ObservableObject").implement({
  fields: (t) => ({ objectType: t.exposeString("objectType") }),
});

export const EventSubscriptionRef = builder.prismaNode("EventSubscription", {
  ...visibleNode(subscriptions.getEventSubscription),
  description: "A site agent's subscription to one type of change: its uuid hex is the broker login, its owner's uuid hex the vhost",
  fields: (t) => ({
    uuid: t.string({ resolve: (s) => toHex(s.id) }),
    user: t.relation("user"),
    ...restPresentation({
      url: t.string({ resolve: (s, _a, ctx) => apiUrl(ctx, "eventSubscription", s.id) }),
      userUrl: t.string({ resolve: (s, _a, ctx) => apiUrl(ctx, "user", s.userId) }),
      userUuid: t.string({ resolve: (s) => toHex(s.userId) }),
      userUsername: t.string({ select: { user: { select: { username: true } } }, resolve: (s) => s.user.username }),
      userFullName: t.string({
        select: { user: { select: { firstName: true, lastName: true } } },
        resolve: (s) => `${s.user.firstName} ${s.user.lastName}`.trim(),
      }),
    }),
    description: t.exposeString("description"),
    sourceIp: t.exposeString("sourceIp", { nullable: true }),
    objectType: t.exposeString("objectType"),
    observableObjects: t.field({ type: [ObservableObjectRef], resolve: (s) => [{ objectType: s.objectType }] }),
    queues: t.relation("queues", { query: { orderBy: [{ created: "asc" }] } }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
  }),
});

export const EventSubscriptionQueueRef = builder.prismaNode("EventSubscriptionQueue", {
  ...visibleNode(queues.getEventSubscriptionQueue),
  fields: (t) => ({
    uuid: t.string({ resolve: (q) => toHex(q.id) }),
    eventSubscription: t.relation("subscription"),
    offering: t.relation("offering"),
    ...restPresentation({
      url: t.string({ resolve: (q, _a, ctx) => apiUrl(ctx, "eventSubscriptionQueue", q.id) }),
      eventSubscriptionUrl: t.string({ resolve: (q, _a, ctx) => apiUrl(ctx, "eventSubscription", q.subscriptionId) }),
      eventSubscriptionUuid: t.string({ resolve: (q) => toHex(q.subscriptionId) }),
      offeringUuid: t.string({ resolve: (q) => toHex(q.offeringId) }),
    }),
    objectType: t.exposeString("objectType"),
    queueName: t.string({ resolve: (q) => subscriptionQueueName(q.subscriptionId, q.offeringId, q.objectType) }),
    vhost: t.string({ select: { subscription: { select: { userId: true } } }, resolve: (q) => vhostOf(q.subscription.userId) }),
    created: t.expose("created", { type: "DateTime" }),
  }),
});

export const eventSubscriptionCollection = collectionFields({
  node: EventSubscriptionRef, contract: EVENT_SUBSCRIPTION_CONTRACT,
  list: { description: "The viewer's event subscriptions (staff and support: everyone's)", load: subscriptions.listEventSubscriptions },
  record: subscriptions.getEventSubscription,
});

export const eventSubscriptionQueueCollection = collectionFields({
  node: EventSubscriptionQueueRef, contract: EVENT_SUBSCRIPTION_QUEUE_CONTRACT,
  list: queues.listEventSubscriptionQueues, record: queues.getEventSubscriptionQueue,
});

const SubscriptionRegistrationRef = builder.objectRef<{ subscription: { id: string }; created: boolean }>("EventSubscriptionRegistration").implement({
  fields: (t) => ({
    created: t.exposeBoolean("created", { description: "False when the caller's subscription to the type existed (its broker login was refreshed)" }),
    subscription: t.prismaField({
      type: "EventSubscription",
      resolve: (query, r, _a, ctx) => findUniqueOrThrow(ctx.db, "eventSubscription", { ...query, where: { id: r.subscription.id } }),
    }),
  }),
});

const QueueCreationRef = builder.objectRef<{ queue: { id: string }; created: boolean }>("EventSubscriptionQueueCreation").implement({
  fields: (t) => ({
    created: t.exposeBoolean("created", { description: "False when the queue existed (it was declared again)" }),
    queue: t.prismaField({
      type: "EventSubscriptionQueue",
      resolve: (query, r, _a, ctx) => findUniqueOrThrow(ctx.db, "eventSubscriptionQueue", { ...query, where: { id: r.queue.id } }),
    }),
  }),
});

const ConsumerQueueRegistrationRef = builder.objectRef<consumerQueues.ConsumerQueueRegistration>("AgentQueueRegistration").implement({
  description: "A newer site agent's one queue: log in as `rmqUsername` with the token, in `vhost`",
  fields: (t) => ({
    created: t.exposeBoolean("created"),
    rmqUsername: t.exposeString("rmqUsername"),
    queueName: t.exposeString("queueName"),
    vhost: t.exposeString("vhost"),
    observableObjectTypes: t.exposeStringList("observableObjectTypes"),
  }),
});

const SyncRequestRef = builder.objectRef<{ status: string }>("SyncRequest").implement({
  fields: (t) => ({ status: t.exposeString("status") }),
});

const RegisterInput = builder.inputType(inputTypeName("registerEventSubscription"), {
  fields: (t) => ({
    identityUuid: t.id({ required: true, description: "The site agent identity the subscription is for" }),
    observableObjectType: t.string({ required: true, description: `One of: ${OBSERVABLE_OBJECT_TYPES.join(", ")}` }),
    description: t.string(),
  }),
});

const CreateQueueInput = builder.inputType(inputTypeName("createEventSubscriptionQueue"), {
  fields: (t) => ({
    subscriptionUuid: t.id({ required: true }),
    offeringUuid: t.string({ required: true, description: "With or without dashes" }),
    objectType: t.string({ required: true, description: `One of: ${OBSERVABLE_OBJECT_TYPES.join(", ")}` }),
  }),
});

const RegisterQueueInput = builder.inputType(inputTypeName("registerAgentQueue"), {
  fields: (t) => ({
    identityUuid: t.id({ required: true }),
    objectTypes: t.stringList({ description: "The types to receive; an empty list means all, leaving it out keeps the current ones" }),
  }),
});

const SyncResourcesInput = builder.inputType(inputTypeName("requestOfferingResourcesSync"), {
  fields: (t) => ({ offeringUuid: t.id({ required: true }) }),
});
const SyncRolesInput = builder.inputType(inputTypeName("requestProjectUserRolesSync"), {
  fields: (t) => ({ projectUuid: t.id({ required: true }) }),
});

builder.mutationFields((t) => ({
  registerEventSubscription: t.field({
    type: SubscriptionRegistrationRef,
    ...resultOr(ON_OBJECT, ValidationError),
    description: "Subscribes the viewer (per token) to one type of change for site agents; provisions its broker login",
    args: { input: t.arg({ type: RegisterInput, required: true }) },
    resolve: (_r, { input }, ctx) => subscriptions.registerEventSubscription(ctx, String(input.identityUuid), input),
  }),
  createEventSubscriptionQueue: t.field({
    type: QueueCreationRef,
    ...resultOr(ON_OBJECT, ValidationError),
    description: "Declares the broker queue of one offering and type under a subscription",
    args: { input: t.arg({ type: CreateQueueInput, required: true }) },
    resolve: (_r, { input }, ctx) => queues.createEventSubscriptionQueue(ctx, String(input.subscriptionUuid), input),
  }),
  deleteEventSubscription: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    description: "Removes the subscription with its queues and broker login",
    args: { input: t.arg({ type: idInput("deleteEventSubscription"), required: true }) },
    resolve: async (_r, { input }, ctx) => deleted("EventSubscription", await subscriptions.deleteEventSubscription(ctx, uuidOf("EventSubscription", input.id))),
  }),
  deleteEventSubscriptionQueue: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    args: { input: t.arg({ type: idInput("deleteEventSubscriptionQueue"), required: true }) },
    resolve: async (_r, { input }, ctx) => deleted("EventSubscriptionQueue", await queues.deleteEventSubscriptionQueue(ctx, uuidOf("EventSubscriptionQueue", input.id))),
  }),
  registerAgentQueue: t.field({
    type: ConsumerQueueRegistrationRef,
    ...resultOr(ON_OBJECT, ValidationError, ConflictError),
    description: "Registers (or refreshes) the agent identity's one consumer queue, receiving every type asked for",
    args: { input: t.arg({ type: RegisterQueueInput, required: true }) },
    resolve: (_r, { input }, ctx) => consumerQueues.registerConsumerQueue(ctx, String(input.identityUuid), input),
  }),
  requestOfferingResourcesSync: t.field({
    type: SyncRequestRef,
    ...resultOr(ON_OBJECT, ConflictError),
    description: "Asks the offering's site agents for a full resynchronisation of its resources",
    args: { input: t.arg({ type: SyncResourcesInput, required: true }) },
    resolve: (_r, { input }, ctx) => sync.requestOfferingResourcesSync(ctx, String(input.offeringUuid)),
  }),
  requestProjectUserRolesSync: t.field({
    type: SyncRequestRef,
    ...resultOr(ON_OBJECT),
    description: "Staff: asks the site agents of the project's offerings to synchronise its members",
    args: { input: t.arg({ type: SyncRolesInput, required: true }) },
    resolve: (_r, { input }, ctx) => sync.requestProjectUserRolesSync(ctx, String(input.projectUuid)),
  }),
}));
