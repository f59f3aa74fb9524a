import { ORDER_TYPE_LABELS } from "./states.ts";
import { ORDER_ACTIONS, ORDER_TRANSITIONS, type OrderAction } from "./transitions.ts";
import { valuesByLabel } from "../collections/contract.ts";
import { COLLECTIONS } from "../collections/rest-paths.ts";
import { fieldError } from "../platform/errors.ts";
import { type BodyFields, bodyField, choice, defineBody, flag, json, link, text, withBody } from "../../rest-adapter/body-contract.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { byId, createRoute, deleteRoute, listRoute, pathId, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { orderCollection } from "./schema.ts";

const ORDER_REST_FRAGMENT = restFragment(
  "OrderRest",
  "Order",
  `url uuid type: typeLabel state: stateLabel attributes limits cost can_terminate: canTerminate auto_approved: autoApproved
   offering: offeringUrl offering_uuid: offeringUuid offering_name: offeringName offering_type: offeringType
   offering_description: offeringDescription offering_plugin_options: offeringPluginOptions
   provider_uuid: providerUuid provider_name: providerName provider_slug: providerSlug provider_description: providerDescription
   plan: planUrl plan_uuid: planUuid plan_name: planName plan_unit: planUnit
   new_plan_uuid: planUuid new_plan_name: planName new_cost_estimate: cost
   resource_uuid: resourceUuid marketplace_resource_uuid: resourceUuid resource_name: resourceName
   project: projectUrl project_uuid: projectUuid project_name: projectName project_slug: projectSlug
   project_description: projectDescription customer_uuid: customerUuid customer_name: customerName customer_slug: customerSlug
   created_by_username: createdByUsername created_by_full_name: createdByFullName created_by_email: createdByEmail
   consumer_reviewed_by: consumerReviewedByUsername consumer_reviewed_by_username: consumerReviewedByUsername
   consumer_reviewed_by_full_name: consumerReviewedByFullName consumer_reviewed_at: consumerReviewedAt
   provider_reviewed_by: providerReviewedByUsername provider_reviewed_by_username: providerReviewedByUsername
   provider_reviewed_by_full_name: providerReviewedByFullName provider_reviewed_at: providerReviewedAt
   error_message: errorMessage error_traceback: errorTraceback backend_id: backendId request_comment: requestComment
   start_date: startDate completed_at: completedAt created modified`,
);

const ORDERS = `/api/${COLLECTIONS.order}`;

/** An order may leave out its plan and resource by giving null or "", and its type (Create) by giving null. */
const NO_LINK = [null, ""];

const ORDER_CREATE = defineBody({
  offering: link("offering", { required: true, as: "offeringUuid" }),
  project: link("project", { required: true, as: "projectUuid" }),
  plan: link("plan", { as: "planUuid", absent: NO_LINK }),
  resource: link("providerResource", { as: "resourceUuid", absent: NO_LINK, description: "The resource an Update or Terminate order is for" }),
  type: choice(valuesByLabel(ORDER_TYPE_LABELS), { absent: [null] }),
  attributes: json({ type: "object" }),
  limits: json({ type: "object" }),
  accepting_terms_of_service: flag(),
  request_comment: text(),
  start_date: text({ description: "YYYY-MM-DD" }),
});

/** The provider's approval may update the order's attributes: a dictionary, or null for none. */
const providerAttributes = bodyField({ absent: [null] }, { type: "object" }, (value, name) => {
  if (typeof value !== "object" || Array.isArray(value)) throw fieldError(name, "Expected a dictionary of items.");
  return value;
});

const ERROR_FIELDS = { error_message: text(), error_traceback: text() };
const APPROVAL_FIELDS = { attributes: providerAttributes };

/** How Waldur answers each action: approvals 200 `{"detail"}`, cancel 202, the rest 200 without a body. */
const RESPONSES: Partial<Record<OrderAction, Pick<RouteSpec, "kind" | "status" | "shape">>> = {
  approve_by_consumer: { kind: "object", shape: (result: { detail: string }) => ({ detail: result.detail }) },
  approve_by_provider: { kind: "object", shape: (result: { detail: string }) => ({ detail: result.detail }) },
  cancel: { kind: "empty", status: 202 },
};

const actions: RouteSpec[] = ORDER_ACTIONS.map((action) => {
  const { mutation, effect, from, to } = ORDER_TRANSITIONS[action];
  const takesError = "storesError" in effect;
  const takesAttributes = "approves" in effect && effect.approves === "provider";
  const args = [takesError ? ", $errorMessage: String, $errorTraceback: String" : "", takesAttributes ? ", $attributes: JSON" : ""].join("");
  const passed = [takesError ? ", errorMessage: $errorMessage, errorTraceback: $errorTraceback" : "", takesAttributes ? ", attributes: $attributes" : ""].join("");
  const fields: BodyFields = { ...(takesError ? ERROR_FIELDS : {}), ...(takesAttributes ? APPROVAL_FIELDS : {}) };
  return {
    method: "POST",
    path: `${ORDERS}/:uuid/${action}/`,
    summary: `Order action ${action}: ${from.join(", ")} → ${to}`,
    document: `mutation($id: ID!${args}) { ${mutation}(input: { id: $id${passed} }) { detail state } }`,
    ...(Object.keys(fields).length
      ? withBody(defineBody(fields), (input, request) => ({ id: pathId("Order", request), ...input }))
      : { variables: byId("Order") }),
    kind: "empty",
    ...RESPONSES[action],
  };
});

const BACKEND_ID = defineBody({ backend_id: text({ required: true }) });

const orderRoutes: RouteSpec[] = [
  listRoute({ path: `${ORDERS}/`, summary: "List orders visible to the caller (consumer or provider side)", collection: orderCollection }),
  createRoute(`${ORDERS}/`, "Create an order (a Create order also creates its resource, in Creating)", "createOrder", "OrderRest", ORDER_CREATE),
  retrieveRoute(ORDERS, "Retrieve an order", orderCollection),
  deleteRoute(ORDERS, "Delete an order (pending-consumer or pending-provider only)", orderCollection),
  {
    method: "POST",
    path: `${ORDERS}/:uuid/unlink/`,
    summary: "Remove an order in any state (staff only)",
    document: `mutation($id: ID!) { unlinkOrder(input: { id: $id }) { uuid } }`,
    variables: byId("Order"),
    kind: "empty",
    status: 204,
  },
  {
    method: "POST",
    path: `${ORDERS}/:uuid/set_backend_id/`,
    summary: "Set the order's backend id",
    document: `mutation($id: ID!, $backendId: String!) { setOrderBackendId(input: { id: $id, backendId: $backendId }) { status } }`,
    ...withBody(BACKEND_ID, (input, request) => ({ id: pathId("Order", request), ...input })),
    kind: "object",
  },
  ...actions,
];

export const orderRest: RestSurface = { routes: orderRoutes, fragments: [ORDER_REST_FRAGMENT] };
