import { RESOURCE_ORDER, type ResourceOrder } from "../../src/resources/filters.ts";
import { resourceStateFromLabel } from "../../src/resources/states.ts";
import { choices, compact, dateTimeParam, ordering, queryValue, uuidListParam, uuidParam } from "../input.ts";
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
    createdAfter: dateTimeParam(query, "created"),
    modifiedAfter: dateTimeParam(query, "modified"),
  });
}

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
];
