import { RESOURCE_CONTRACT } from "../../src/resources/contract.ts";
import { invalid } from "../../src/platform/errors.ts";
import { booleanParam, compact, optionalString, requiredString } from "../input.ts";
import type { RouteSpec } from "../route.ts";
import { byUuid, listRoute } from "./common.ts";

const BASE = "/api/marketplace-provider-resources";

/** The site agent's write-backs: each answers Waldur's `{"status": …}`. */
const backendAction = (action: string, summary: string, mutation: string, argument: { name: string; type: string; read: (body: Record<string, unknown>) => unknown }): RouteSpec => ({
  method: "POST",
  path: `${BASE}/:uuid/${action}/`,
  summary,
  document: `mutation($uuid: ID!, $${argument.name}: ${argument.type}!) {
    ${mutation}(uuid: $uuid, ${argument.name}: $${argument.name}) { status } }`,
  variables: ({ params, body }) => ({ uuid: params.uuid, [argument.name]: argument.read(body) }),
  kind: "object",
});

const required = (field: string) => (body: Record<string, unknown>) => body[field] ?? missing(field);
const missing = (field: string): never => {
  throw invalid({ [field]: ["This field is required."] });
};

const providerList = listRoute({
  path: `${BASE}/`,
  summary: "List resources of the caller's provider organisations (staff and support: all)",
  field: "resources",
  type: "Resource",
  fragment: "ResourceRest",
  contract: RESOURCE_CONTRACT,
});

export const resourceRoutes: RouteSpec[] = [
  {
    ...providerList,
    document: `query($filter: ResourceFilter, $orderBy: [ResourceOrder!], $first: Int, $offset: Int) {
      resources(view: PROVIDER, filter: $filter, orderBy: $orderBy, first: $first, offset: $offset) { totalCount nodes { ...ResourceRest } } }`,
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
    summary: "The backend object behind a resource: 404 with no body when it has none",
    document: `query($uuid: ID!) { resourceDetails(uuid: $uuid) { ...ResourceRest } }`,
    variables: byUuid,
    kind: "object",
    statusOf: (value) => (value ? 200 : 404),
    shape: (value) => value ?? undefined,
  },
  {
    method: "GET",
    path: `${BASE}/:uuid/team/`,
    summary: "The resource's project team with their usernames on the offering",
    document: `query($uuid: ID!, $hasConsent: Boolean) { resourceTeam(uuid: $uuid, hasConsent: $hasConsent) { url uuid username
      full_name: fullName email role expiration_time: expirationTime offering_user_username: offeringUserUsername
      offering_user_state: offeringUserStateLabel } }`,
    variables: ({ params, query }) => compact({ uuid: params.uuid, hasConsent: booleanParam(query, "has_consent") }),
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
    read: required("backend_metadata"),
  }),
  backendAction("set_limits", "Replace the limits applied on the backend", "setResourceLimits", {
    name: "limits",
    type: "JSON",
    read: required("limits"),
  }),
  {
    method: "POST",
    path: `${BASE}/:uuid/set_end_date/`,
    summary: "Set (or, with null, clear) the resource's end date (no body)",
    document: `mutation($uuid: ID!, $endDate: String) { setResourceEndDate(uuid: $uuid, endDate: $endDate) { changed } }`,
    variables: ({ params, body }) => ({ uuid: params.uuid, endDate: optionalString(body, "end_date") ?? null }),
    kind: "empty",
  },
  {
    method: "POST",
    path: `${BASE}/:uuid/refresh_last_sync/`,
    summary: "Record that the site agent has just synchronised the resource (no body)",
    document: `mutation($uuid: ID!) { refreshResourceLastSync(uuid: $uuid) { changed } }`,
    variables: byUuid,
    kind: "empty",
  },
  {
    method: "POST",
    path: `${BASE}/:uuid/set_as_ok/`,
    summary: "The provider reports the resource in order: OK, error message cleared (no body)",
    document: `mutation($uuid: ID!) { setResourceAsOk(uuid: $uuid) { state } }`,
    variables: byUuid,
    kind: "empty",
  },
  {
    method: "POST",
    path: `${BASE}/:uuid/set_as_erred/`,
    summary: "The provider reports the resource failed: Erred, with error_message and error_traceback (no body)",
    document: `mutation($uuid: ID!, $errorMessage: String, $errorTraceback: String) {
      setResourceAsErred(uuid: $uuid, errorMessage: $errorMessage, errorTraceback: $errorTraceback) { state } }`,
    variables: ({ params, body }) =>
      compact({ uuid: params.uuid, errorMessage: optionalString(body, "error_message"), errorTraceback: optionalString(body, "error_traceback") }),
    kind: "empty",
  },
  {
    method: "POST",
    path: `${BASE}/:uuid/set_membership_sync_statuses/`,
    summary: "The site agent's full report of each member's sync state (409 unless the offering opts in)",
    document: `mutation($uuid: ID!, $statuses: JSON!) { setResourceMembershipSyncStatuses(uuid: $uuid, statuses: $statuses) { stored skipped } }`,
    variables: ({ params, body }) => ({ uuid: params.uuid, statuses: required("statuses")(body) }),
    kind: "object",
  },
];
