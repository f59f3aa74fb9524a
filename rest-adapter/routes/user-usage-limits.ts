import { fieldError } from "../../src/platform/errors.ts";
import { amountError } from "../../src/usage/amounts.ts";
import { USER_LIMIT_ORDER, type UserLimitOrder } from "../../src/usage/user-limits.ts";
import { compact, hyperlink, nonBlankString, ordering, queryValue, readAll, uuidParam } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { deleteRoute, retrieveRoute } from "./common.ts";
import { orderParams } from "./resources.ts";

const LIMITS = "/api/component-user-usage-limits";
const ORDER = orderParams<UserLimitOrder>(USER_LIMIT_ORDER);
const RESOURCES = "(?:marketplace-resources|marketplace-provider-resources)";
const FRAGMENT = "ComponentUserUsageLimitRest";

/** A query parameter given as a bare uuid (`<name>_uuid`) or as the object's URL (`<name>`). */
function uuidOrUrl(query: URLSearchParams, name: string, collection: string) {
  const url = queryValue(query, name);
  return uuidParam(query, `${name}_uuid`) ?? (url ? hyperlink(url, name, collection) : undefined);
}

function limitFilter({ query }: RestRequest) {
  return compact({
    resourceUuid: uuidOrUrl(query, "resource", RESOURCES),
    userUuid: uuidOrUrl(query, "user", "users"),
    offeringUuid: uuidParam(query, "offering_uuid"),
    componentUuid: uuidParam(query, "component_uuid"),
    componentType: queryValue(query, "component_type"),
  });
}

/** DRF DecimalField: a number or a numeric string, ≥ 0, at most 2 decimal places. */
function limitValue(body: Record<string, unknown>): string {
  const value = body.limit;
  if (value === undefined) throw fieldError("limit", "This field is required.");
  if (value === null) throw fieldError("limit", "This field may not be null.");
  const text = typeof value === "number" || typeof value === "string" ? String(value) : "";
  const problem = amountError(text);
  if (problem) throw fieldError("limit", problem);
  return text;
}

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${LIMITS}/:uuid/`,
  summary: "Change a per-user component limit (resource, component and user stay as created)",
  document: `mutation($uuid: ID!, $limit: String) { updateComponentUserUsageLimit(uuid: $uuid, limit: $limit) { ...${FRAGMENT} } }`,
  variables: ({ params, body }) => ({ uuid: params.uuid, ...(method === "PUT" || body.limit !== undefined ? { limit: limitValue(body) } : {}) }),
  kind: "object",
});

export const userUsageLimitRoutes: RouteSpec[] = [
  {
    method: "GET",
    path: `${LIMITS}/`,
    summary: "List per-user component usage limits (provider and consumer side)",
    document: `query($first: Int, $offset: Int, $filter: ComponentUserUsageLimitFilter, $orderBy: [ComponentUserUsageLimitOrder!]) {
      componentUserUsageLimits(first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) { totalCount nodes { ...${FRAGMENT} } } }`,
    variables: (request) => compact({ filter: limitFilter(request), orderBy: ordering(request.query, ORDER) }),
    kind: "list",
  },
  {
    method: "POST",
    path: `${LIMITS}/`,
    summary: "Set a user's limit on a resource's component: {resource, component_type, user, limit} (SET_RESOURCE_LIMITS)",
    document: `mutation($input: CreateComponentUserUsageLimitInput!) { createComponentUserUsageLimit(input: $input) { ...${FRAGMENT} } }`,
    variables: ({ body }) => ({
      input: readAll({
        resourceUuid: () => hyperlink(body.resource, "resource", RESOURCES),
        componentType: () => nonBlankString(body, "component_type"),
        userUuid: () => hyperlink(body.user, "user", "users"),
        limit: () => limitValue(body),
      }),
    }),
    kind: "object",
    status: 201,
  },
  retrieveRoute(LIMITS, "Retrieve a per-user component usage limit", "componentUserUsageLimit", FRAGMENT),
  update("PUT"),
  update("PATCH"),
  deleteRoute(LIMITS, "Delete a per-user component usage limit", "deleteComponentUserUsageLimit"),
];
