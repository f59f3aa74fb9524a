import { ORDER_CONTRACT } from "../../src/orders/contract.ts";
import { orderTypeFromLabel } from "../../src/orders/states.ts";
import { ORDER_ACTIONS, ORDER_TRANSITIONS, type OrderAction } from "../../src/orders/transitions.ts";
import { fieldError } from "../../src/platform/errors.ts";
import { compact, hyperlink, optionalBoolean, optionalString, readAll, requiredString } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { byUuid, deleteRoute, listRoute, retrieveRoute } from "./common.ts";

const BASE = "/api/marketplace-orders";

/** Hyperlinks are matched by collection; Waldur links offerings and resources through more than one view. */
const OFFERINGS = "(?:marketplace-provider-offerings|marketplace-public-offerings)";
const RESOURCES = "(?:marketplace-resources|marketplace-provider-resources)";
const PLANS = "(?:marketplace-plans|marketplace-public-plans)";

function orderType(body: Record<string, unknown>) {
  const label = optionalString(body, "type");
  if (label == null) return undefined;
  const type = orderTypeFromLabel(label);
  if (!type) throw fieldError("type", `"${label}" is not a valid choice.`);
  return type;
}

const optionalLink = (body: Record<string, unknown>, field: string, collection: string) =>
  body[field] === undefined || body[field] === null || body[field] === "" ? undefined : hyperlink(body[field], field, collection);

function createInput({ body }: RestRequest) {
  const input = readAll({
    offeringUuid: () => hyperlink(body.offering, "offering", OFFERINGS),
    projectUuid: () => hyperlink(body.project, "project", "projects"),
    planUuid: () => optionalLink(body, "plan", PLANS),
    resourceUuid: () => optionalLink(body, "resource", RESOURCES),
    type: () => orderType(body),
    attributes: () => body.attributes,
    limits: () => body.limits,
    acceptingTermsOfService: () => optionalBoolean(body, "accepting_terms_of_service"),
    requestComment: () => optionalString(body, "request_comment"),
    startDate: () => optionalString(body, "start_date"),
  });
  return { input: compact(input) };
}

function attributesOf(body: Record<string, unknown>) {
  const value = body.attributes;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw fieldError("attributes", "Expected a dictionary of items.");
  return value;
}

/** How Waldur answers each action: approvals 200 `{"detail"}`, cancel 202, the rest 200 without a body. */
const RESPONSES: Partial<Record<OrderAction, Pick<RouteSpec, "kind" | "status" | "shape">>> = {
  approve_by_consumer: { kind: "object", shape: (result: { detail: string }) => ({ detail: result.detail }) },
  approve_by_provider: { kind: "object", shape: (result: { detail: string }) => ({ detail: result.detail }) },
  cancel: { kind: "empty", status: 202 },
};

const actions: RouteSpec[] = ORDER_ACTIONS.map((action) => {
  const { effect, from, to } = ORDER_TRANSITIONS[action];
  const takesError = "storesError" in effect;
  const takesAttributes = "approves" in effect && effect.approves === "provider";
  const args = [takesError ? ", $errorMessage: String, $errorTraceback: String" : "", takesAttributes ? ", $attributes: JSON" : ""].join("");
  const passed = [takesError ? ", errorMessage: $errorMessage, errorTraceback: $errorTraceback" : "", takesAttributes ? ", attributes: $attributes" : ""].join("");
  return {
    method: "POST",
    path: `${BASE}/:uuid/${action}/`,
    summary: `Order action ${action}: ${from.join(", ")} → ${to}`,
    document: `mutation($uuid: ID!${args}) { ${effect.mutation}(uuid: $uuid${passed}) { detail state } }`,
    variables: ({ params, body }) =>
      compact({
        uuid: params.uuid,
        ...(takesError ? { errorMessage: optionalString(body, "error_message"), errorTraceback: optionalString(body, "error_traceback") } : {}),
        ...(takesAttributes ? { attributes: attributesOf(body) } : {}),
      }),
    kind: "empty",
    ...RESPONSES[action],
  };
});

export const orderRoutes: RouteSpec[] = [
  listRoute({
    path: `${BASE}/`,
    summary: "List orders visible to the caller (consumer or provider side)",
    field: "orders",
    type: "Order",
    fragment: "OrderRest",
    contract: ORDER_CONTRACT,
  }),
  {
    method: "POST",
    path: `${BASE}/`,
    summary: "Create an order (a Create order also creates its resource, in Creating)",
    document: `mutation($input: CreateOrderInput!) { createOrder(input: $input) { ...OrderRest } }`,
    variables: createInput,
    kind: "object",
    status: 201,
  },
  retrieveRoute(BASE, "Retrieve an order", "order", "OrderRest"),
  deleteRoute(BASE, "Delete an order (pending-consumer or pending-provider only)", "deleteOrder", "{ uuid }"),
  {
    method: "POST",
    path: `${BASE}/:uuid/unlink/`,
    summary: "Remove an order in any state (staff only)",
    document: `mutation($uuid: ID!) { unlinkOrder(uuid: $uuid) { uuid } }`,
    variables: byUuid,
    kind: "empty",
    status: 204,
  },
  {
    method: "POST",
    path: `${BASE}/:uuid/set_backend_id/`,
    summary: "Set the order's backend id",
    document: `mutation($uuid: ID!, $backendId: String!) { setOrderBackendId(uuid: $uuid, backendId: $backendId) { status } }`,
    variables: ({ params, body }) => ({ uuid: params.uuid, backendId: requiredString(body, "backend_id") }),
    kind: "object",
  },
  ...actions,
];
