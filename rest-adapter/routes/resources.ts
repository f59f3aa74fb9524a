import { RESOURCE_ORDER, type ResourceOrder } from "../../src/resources/filters.ts";
import { resourceStateFromLabel } from "../../src/resources/states.ts";
import { booleanParam, choices, compact, dateTimeParam, ordering, queryValue, requiredString, uuidListParam, uuidParam } from "../input.ts";
import { invalid } from "../../src/platform/errors.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { byUuid } from "./common.ts";

const BASE = "/api/marketplace-provider-resources";

/** `o=-project_name` → PROJECT_NAME_DESC. */
export const orderParams = <T extends string>(table: Record<T, unknown>): Record<string, T> =>
  Object.fromEntries(
    (Object.keys(table) as T[]).map((order) => {
      const field = order.replace(/_(ASC|DESC)$/, "").toLowerCase();
      return [order.endsWith("_DESC") ? `-${field}` : field, order];
    }),
  );

const ORDER = orderParams<ResourceOrder>(RESOURCE_ORDER);

export function resourceFilter({ query }: RestRequest) {
  return compact({
    state: choices(query, "state", resourceStateFromLabel),
    offeringUuid: uuidListParam(query, "offering_uuid"),
    projectUuid: uuidParam(query, "project_uuid"),
    customerUuid: uuidParam(query, "customer_uuid") ?? uuidParam(query, "customer"),
    providerUuid: uuidParam(query, "provider_uuid"),
    name: queryValue(query, "name"),
    nameExact: queryValue(query, "name_exact"),
    backendId: queryValue(query, "backend_id"),
    restrictMemberAccess: booleanParam(query, "restrict_member_access"),
    paused: booleanParam(query, "paused"),
    downscaled: booleanParam(query, "downscaled"),
    createdAfter: dateTimeParam(query, "created"),
    modifiedAfter: dateTimeParam(query, "modified"),
  });
}

/** The site agent's write-backs: each answers Waldur's `{"status": …}`. */
const backendAction = (action: string, summary: string, mutation: string, argument?: { name: string; type: string; read: (body: Record<string, unknown>) => unknown }): RouteSpec => ({
  method: "POST",
  path: `${BASE}/:uuid/${action}/`,
  summary,
  document: `mutation($uuid: ID!${argument ? `, $${argument.name}: ${argument.type}!` : ""}) {
    ${mutation}(uuid: $uuid${argument ? `, ${argument.name}: $${argument.name}` : ""}) { status } }`,
  variables: ({ params, body }) => ({ uuid: params.uuid, ...(argument ? { [argument.name]: argument.read(body) } : {}) }),
  kind: "object",
});

const jsonObject = (field: string) => (body: Record<string, unknown>) => body[field] ?? missing(field);
const missing = (field: string): never => {
  throw invalid({ [field]: ["This field is required."] });
};

export const resourceRoutes: RouteSpec[] = [
  {
    method: "GET",
    path: `${BASE}/`,
    summary: "List resources of the caller's provider organisations (staff and support: all)",
    document: `query($filter: ResourceFilter, $orderBy: [ResourceOrder!], $first: Int, $offset: Int) {
      resources(view: PROVIDER, filter: $filter, orderBy: $orderBy, first: $first, offset: $offset) { totalCount nodes { ...ResourceRest } } }`,
    variables: (request) => compact({ filter: resourceFilter(request), orderBy: ordering(request.query, ORDER) }),
    kind: "list",
  },
  {
    method: "GET",
    path: `${BASE}/:uuid/`,
    summary: "Retrieve a resource (provider view)",
    document: `query($uuid: ID!) { resource(uuid: $uuid, view: PROVIDER) { ...ResourceRest } }`,
    variables: byUuid,
    kind: "object",
  },
  {
    method: "GET",
    path: `${BASE}/:uuid/details/`,
    summary: "The backend object behind a resource: 404 when it has none",
    document: `query($uuid: ID!) { resourceDetails(uuid: $uuid) { ...ResourceRest } }`,
    variables: byUuid,
    kind: "object",
  },
  {
    method: "GET",
    path: `${BASE}/:uuid/team/`,
    summary: "The resource's project team with their usernames on the offering",
    document: `query($uuid: ID!) { resourceTeam(uuid: $uuid) { url uuid username full_name: fullName email role
      expiration_time: expirationTime offering_user_username: offeringUserUsername offering_user_state: offeringUserStateLabel } }`,
    variables: byUuid,
    kind: "object",
  },
  backendAction("set_backend_id", "Set the resource's backend id", "setResourceBackendId", {
    name: "backendId",
    type: "String",
    read: (body) => requiredString(body, "backend_id"),
  }),
  backendAction("set_backend_metadata", "Replace the resource's backend metadata", "setResourceBackendMetadata", {
    name: "backendMetadata",
    type: "JSON",
    read: jsonObject("backend_metadata"),
  }),
  backendAction("set_limits", "Replace the limits applied on the backend", "setResourceLimits", {
    name: "limits",
    type: "JSON",
    read: jsonObject("limits"),
  }),
  backendAction("refresh_last_sync", "Record that the site agent has just synchronised the resource", "refreshResourceLastSync"),
];
