import { fieldError } from "../../src/platform/errors.ts";
import { parseUuid } from "../../src/platform/ids.ts";
import { amountError } from "../../src/usage/amounts.ts";
import { USER_LIMIT_CONTRACT } from "../../src/usage/user-limits-contract.ts";
import { hyperlink, nonBlankString, pythonTypeName, readAll } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { deleteRoute, listRoute, retrieveRoute } from "./common.ts";

const LIMITS = "/api/component-user-usage-limits";
const RESOURCES = "(?:marketplace-resources|marketplace-provider-resources)";
const FRAGMENT = "ComponentUserUsageLimitRest";

/** Waldur's `component` (an offering component's uuid); without it, our `component_type` names the component. */
function componentOf(body: Record<string, unknown>) {
  const component = body.component;
  if (component === undefined) return { componentType: nonBlankString(body, "component_type") };
  if (component === null || component === "") throw fieldError("component", "This field may not be null.");
  if (typeof component !== "string") throw fieldError("component", `Incorrect type. Expected a UUID string, received ${pythonTypeName(component)}.`);
  if (!parseUuid(component)) throw fieldError("component", "Must be a valid UUID.");
  return { componentUuid: component };
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
  listRoute({
    path: `${LIMITS}/`,
    summary: "List per-user component usage limits (provider and consumer side)",
    field: "componentUserUsageLimits",
    type: "ComponentUserUsageLimit",
    fragment: FRAGMENT,
    contract: USER_LIMIT_CONTRACT,
  }),
  {
    method: "POST",
    path: `${LIMITS}/`,
    summary: "Set a user's limit on a resource's component: {resource, component (uuid) or component_type, user, limit} (SET_RESOURCE_LIMITS)",
    document: `mutation($input: CreateComponentUserUsageLimitInput!) { createComponentUserUsageLimit(input: $input) { ...${FRAGMENT} } }`,
    variables: ({ body }: RestRequest) => {
      const { component, ...input } = readAll({
        resourceUuid: () => hyperlink(body.resource, "resource", RESOURCES),
        component: () => componentOf(body),
        userUuid: () => hyperlink(body.user, "user", "users"),
        limit: () => limitValue(body),
      });
      return { input: { ...input, ...component } };
    },
    kind: "object",
    status: 201,
  },
  retrieveRoute(LIMITS, "Retrieve a per-user component usage limit", "componentUserUsageLimit", FRAGMENT),
  update("PUT"),
  update("PATCH"),
  deleteRoute(LIMITS, "Delete a per-user component usage limit", "deleteComponentUserUsageLimit"),
];
