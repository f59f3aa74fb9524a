import { OBSERVABLE_OBJECT_TYPES } from "./object-types.ts";
import { COLLECTIONS } from "../collections/rest-paths.ts";
import { choice, defineBody, json, text, withBody } from "../../rest-adapter/body-contract.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { byUuid, deleteRoute, listRoute, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { eventSubscriptionCollection, eventSubscriptionQueueCollection } from "./schema.ts";

const EVENT_SUBSCRIPTION_REST_FRAGMENT = restFragment(
  "EventSubscriptionRest",
  "EventSubscription",
  `uuid url user: userUrl user_uuid: userUuid user_username: userUsername user_full_name: userFullName created modified
   source_ip: sourceIp description observable_objects: observableObjects { object_type: objectType }`,
);

const EVENT_SUBSCRIPTION_QUEUE_REST_FRAGMENT = restFragment(
  "EventSubscriptionQueueRest",
  "EventSubscriptionQueue",
  `uuid url event_subscription: eventSubscriptionUrl event_subscription_uuid: eventSubscriptionUuid
   offering_uuid: offeringUuid object_type: objectType queue_name: queueName vhost created`,
);

const SUBSCRIPTIONS = `/api/${COLLECTIONS.eventSubscription}`;
const QUEUES = `/api/${COLLECTIONS.eventSubscriptionQueue}`;
const IDENTITIES = `/api/${COLLECTIONS.agentIdentity}`;

const OBJECT_TYPES = Object.fromEntries(OBSERVABLE_OBJECT_TYPES.map((type) => [type, type]));

const REGISTRATION = defineBody({ observable_object_type: choice(OBJECT_TYPES, { required: true }), description: text() });
const QUEUE = defineBody({
  offering_uuid: text({ required: true, description: "The offering's uuid, with or without dashes" }),
  object_type: choice(OBJECT_TYPES, { required: true }),
});

const CONSUMER_QUEUE = defineBody({
  object_types: json({ type: "array", items: { type: "string", enum: [...OBSERVABLE_OBJECT_TYPES] } }, { description: "Empty: every type; absent: unchanged" }),
});

/** A call that makes or refreshes: 201 when it created the row, 200 when it existed. */
const createdOr200 = { kind: "object", status: 201, statusOf: (value) => (value.created ? 201 : 200) } satisfies Partial<RouteSpec>;

/** A request queued for the agents: Waldur answers with a `Status`. */
const syncRoute = (path: string, summary: string, mutation: string, inputField: string, status: number): RouteSpec => ({
  method: "POST",
  path,
  summary,
  document: `mutation($uuid: ID!) { ${mutation}(input: { ${inputField}: $uuid }) { status } }`,
  variables: byUuid,
  kind: "object",
  status,
});

const eventSubscriptionRoutes: RouteSpec[] = [
  listRoute({
    path: `${SUBSCRIPTIONS}/`,
    summary: "List the caller's event subscriptions (staff and support: everyone's)",
    collection: eventSubscriptionCollection,
  }),
  retrieveRoute(SUBSCRIPTIONS, "Retrieve an event subscription", eventSubscriptionCollection),
  deleteRoute(SUBSCRIPTIONS, "Remove an event subscription with its queues and broker login", eventSubscriptionCollection),
  {
    method: "POST",
    path: `${SUBSCRIPTIONS}/:uuid/create_queue/`,
    summary: "Declare the broker queue of one offering and object type under the subscription",
    document: `mutation($input: CreateEventSubscriptionQueueInput!) {
      createEventSubscriptionQueue(input: $input) { created queue { ...EventSubscriptionQueueRest } } }`,
    ...withBody(QUEUE, (input, { params }) => ({ input: { subscriptionUuid: params.uuid, ...input } })),
    ...createdOr200,
    shape: (value) => value.queue,
  },
  listRoute({
    path: `${QUEUES}/`,
    summary: "List the queues of the caller's event subscriptions",
    collection: eventSubscriptionQueueCollection,
  }),
  retrieveRoute(QUEUES, "Retrieve an event subscription queue", eventSubscriptionQueueCollection),
  deleteRoute(QUEUES, "Remove an event subscription queue (and the broker queue)", eventSubscriptionQueueCollection),
  {
    method: "POST",
    path: `${IDENTITIES}/:uuid/register_event_subscription/`,
    summary: "Subscribe the caller's token to one object type for the agent; provisions its broker login (400 without a broker)",
    document: `mutation($input: RegisterEventSubscriptionInput!) {
      registerEventSubscription(input: $input) { created subscription { ...EventSubscriptionRest } } }`,
    ...withBody(REGISTRATION, (input, { params }) => ({ input: { identityUuid: params.uuid, ...input } })),
    ...createdOr200,
    shape: (value) => value.subscription,
  },
  {
    method: "POST",
    path: `${IDENTITIES}/:uuid/register_queue/`,
    summary: "Register (or refresh) the identity's one consumer queue for all the types it asks for (newer agents)",
    document: `mutation($input: RegisterAgentQueueInput!) {
      registerAgentQueue(input: $input) { created rmq_username: rmqUsername queue_name: queueName vhost observable_object_types: observableObjectTypes } }`,
    ...withBody(CONSUMER_QUEUE, (input, { params }) => ({ input: { identityUuid: params.uuid, ...input } })),
    ...createdOr200,
    shape: ({ created: _created, ...registration }) => registration,
  },
  syncRoute(
    `/api/${COLLECTIONS.offering}/:uuid/sync_resources/`,
    "Ask the offering's site agents for a full resource resynchronisation (409 when none listens)",
    "requestOfferingResourcesSync",
    "offeringUuid",
    202,
  ),
  syncRoute(
    `/api/${COLLECTIONS.project}/:uuid/sync_user_roles/`,
    "Staff: ask the site agents of the project's offerings to synchronise its members",
    "requestProjectUserRolesSync",
    "projectUuid",
    200,
  ),
];

export const eventSubscriptionRest: RestSurface = {
  routes: eventSubscriptionRoutes,
  fragments: [EVENT_SUBSCRIPTION_REST_FRAGMENT, EVENT_SUBSCRIPTION_QUEUE_REST_FRAGMENT],
};
