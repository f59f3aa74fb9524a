import { COLLECTIONS } from "../collections/rest-paths.ts";
import { fieldError } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { bodyField, defineBody, link, type RequestBody, text, withBody } from "../../rest-adapter/body-contract.ts";
import { pythonTypeName } from "../../rest-adapter/input.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { checkedDecimal, DECIMAL } from "./rest-decimals.ts";
import { createRoute, deleteRoute, listRoute, pathId, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { componentUserUsageLimitCollection } from "./schema-user-limits.ts";

const COMPONENT_USER_USAGE_LIMIT_REST_FRAGMENT = restFragment(
  "ComponentUserUsageLimitRest",
  "ComponentUserUsageLimit",
  `uuid url resource: resourceUrl resource_uuid: resourceUuid resource_name: resourceName component: componentUuid
   component_type: componentType user: userUrl user_uuid: userUuid username limit created modified`,
);

const LIMITS = `/api/${COLLECTIONS.componentUserUsageLimit}`;
const FRAGMENT = "ComponentUserUsageLimitRest";

/** Waldur's `component`: an offering component's uuid (no URL). */
const component = bodyField({ as: "componentUuid", description: "uuid of the offering component" }, { type: "string", format: "uuid" }, (value, name) => {
  if (value === null || value === "") throw fieldError(name, "This field may not be null.");
  if (typeof value !== "string") throw fieldError(name, `Incorrect type. Expected a UUID string, received ${pythonTypeName(value)}.`);
  if (!parseUuid(value)) throw fieldError(name, "Must be a valid UUID.");
  return value;
});

/** DRF DecimalField, checked here: ≥ 0, at most 2 decimal places, never null. */
const limit = <const O extends { required?: boolean }>(options: O) =>
  bodyField(options, DECIMAL, (value, name) => {
    if (value === null) throw fieldError(name, "This field may not be null.");
    return checkedDecimal(value, name);
  });

const LIMIT_FIELDS = {
  resource: link("providerResource", { required: true, as: "resourceUuid" }),
  component,
  component_type: text({ blank: false, description: "Ours: names the component by its type where component is not given" }),
  user: link("user", { required: true, as: "userUuid" }),
  limit: limit({ required: true }),
};
const LIMIT_BY_COMPONENT = defineBody(LIMIT_FIELDS);
const LIMIT_BY_TYPE = defineBody({ ...LIMIT_FIELDS, component_type: text({ required: true, blank: false }) });

const namesComponent = (body: unknown): body is { component: unknown } =>
  typeof body === "object" && body !== null && "component" in body && body.component !== undefined;

/** With Waldur's `component`, `component_type` is not read; without it, `component_type` must name the component. */
const LIMIT_CREATE: RequestBody<typeof LIMIT_FIELDS> = {
  ...LIMIT_BY_COMPONENT,
  schema: { ...LIMIT_BY_COMPONENT.schema, anyOf: [{ required: ["component"] }, { required: ["component_type"] }] },
  read: (body) => (namesComponent(body) ? LIMIT_BY_COMPONENT.read({ ...body, component_type: undefined }) : LIMIT_BY_TYPE.read(body)),
};

/** PUT must give the limit; PATCH may leave it as it is. */
const limitChange = (method: "PUT" | "PATCH") => defineBody({ limit: limit({ required: method === "PUT" }) });

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${LIMITS}/:uuid/`,
  summary: "Change a per-user component limit (resource, component and user stay as created)",
  document: `mutation($id: ID!, $limit: String) { updateComponentUserUsageLimit(input: { id: $id, limit: $limit }) { ...${FRAGMENT} } }`,
  ...withBody(limitChange(method), (input, request) => ({ id: pathId("ComponentUserUsageLimit", request), ...input })),
  kind: "object",
});

const userUsageLimitRoutes: RouteSpec[] = [
  listRoute({
    path: `${LIMITS}/`,
    summary: "List per-user component usage limits (provider and consumer side)",
    collection: componentUserUsageLimitCollection,
    fragment: FRAGMENT,
  }),
  createRoute(`${LIMITS}/`, "Set a user's limit on a resource's component: {resource, component (uuid) or component_type, user, limit} (SET_RESOURCE_LIMITS)", "createComponentUserUsageLimit", FRAGMENT, LIMIT_CREATE),
  retrieveRoute(LIMITS, "Retrieve a per-user component usage limit", componentUserUsageLimitCollection, FRAGMENT),
  update("PUT"),
  update("PATCH"),
  deleteRoute(LIMITS, "Delete a per-user component usage limit", componentUserUsageLimitCollection),
];

export const userUsageLimitRest: RestSurface = {
  routes: userUsageLimitRoutes,
  fragments: [COMPONENT_USER_USAGE_LIMIT_REST_FRAGMENT],
};
