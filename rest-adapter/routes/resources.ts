import { COLLECTIONS } from "../../src/platform/collections.ts";
import { RESOURCE_CONTRACT } from "../../src/resources/contract.ts";
import { defineBody, json, type RequestBody, text, withBody } from "../body-contract.ts";
import { readFilters } from "../collection-query.ts";
import type { JsonSchema } from "../openapi/json-schema.ts";
import type { QueryParameters, RouteSpec } from "../route.ts";
import { byId, byUuid, listRoute, pathId } from "./common.ts";

const RESOURCES = `/api/${COLLECTIONS.providerResource}`;

/** Any JSON, checked by the service; Waldur refuses a missing and a null value alike. */
const requiredJson = (schema: JsonSchema) => json(schema, { required: true, absent: [null] });

/** The site agent's write-backs: each answers Waldur's `{"status": …}`; the body's one field is the mutation's argument. */
const backendAction = (action: string, summary: string, mutation: string, argument: { name: string; type: string }, body: RequestBody): RouteSpec => ({
  method: "POST",
  path: `${RESOURCES}/:uuid/${action}/`,
  summary,
  document: `mutation($id: ID!, $${argument.name}: ${argument.type}!) {
    ${mutation}(input: { id: $id, ${argument.name}: $${argument.name} }) { status } }`,
  ...withBody(body, (input, request) => ({ id: pathId("Resource", request), ...input })),
  kind: "object",
});

/** `has_consent` narrows the team inside `resourceTeam`. */
const TEAM_QUERY: QueryParameters = {
  filters: {
    hasConsent: {
      kind: "boolean",
      rest: "has_consent",
      description: "Only members who may (true) or may not (false) use the offering as far as its terms go",
    },
  },
};

const BACKEND_ID = defineBody({ backend_id: text({ required: true }) });
const BACKEND_METADATA = defineBody({ backend_metadata: requiredJson({ type: "object" }) });
const LIMITS = defineBody({ limits: requiredJson({ type: "object" }) });
const ERROR_REPORT = defineBody({ error_message: text(), error_traceback: text() });
const END_DATE = defineBody({ end_date: text({ description: "YYYY-MM-DD, or null to clear it" }) });
const MEMBERSHIP_SYNC = defineBody({ statuses: requiredJson({ type: "array", items: { type: "object" } }) });

const providerList = listRoute({
  path: `${RESOURCES}/`,
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
    path: `${RESOURCES}/:uuid/`,
    summary: "Retrieve a resource (provider view)",
    document: `query($uuid: ID!) { resource(uuid: $uuid, view: PROVIDER) { ...ResourceRest } }`,
    variables: byUuid,
    kind: "object",
  },
  {
    method: "GET",
    path: `${RESOURCES}/:uuid/details/`,
    summary: "The backend object behind a resource: 404 with no body when it has none",
    document: `query($uuid: ID!) { resourceDetails(uuid: $uuid) { ...ResourceRest } }`,
    variables: byUuid,
    kind: "object",
    statusOf: (value) => (value ? 200 : 404),
    shape: (value) => value ?? undefined,
  },
  {
    method: "GET",
    path: `${RESOURCES}/:uuid/team/`,
    summary: "The resource's project team with their usernames on the offering",
    document: `query($uuid: ID!, $hasConsent: Boolean) { resourceTeam(uuid: $uuid, hasConsent: $hasConsent) { url uuid username
      full_name: fullName email role expiration_time: expirationTime offering_user_username: offeringUserUsername
      offering_user_state: offeringUserStateLabel } }`,
    variables: ({ params, query }) => ({ uuid: params.uuid, ...readFilters(TEAM_QUERY, query) }),
    query: TEAM_QUERY,
    kind: "object",
  },
  backendAction("set_backend_id", "Set the resource's backend id", "setResourceBackendId", { name: "backendId", type: "String" }, BACKEND_ID),
  backendAction("set_backend_metadata", "Replace the resource's backend metadata", "setResourceBackendMetadata", { name: "backendMetadata", type: "JSON" }, BACKEND_METADATA),
  backendAction("set_limits", "Replace the limits applied on the backend", "setResourceLimits", { name: "limits", type: "JSON" }, LIMITS),
  {
    method: "POST",
    path: `${RESOURCES}/:uuid/set_end_date/`,
    summary: "Set (or, with null, clear) the resource's end date (no body)",
    document: `mutation($id: ID!, $endDate: String) { setResourceEndDate(input: { id: $id, endDate: $endDate }) { changed } }`,
    ...withBody(END_DATE, ({ endDate }, request) => ({ id: pathId("Resource", request), endDate: endDate ?? null })),
    kind: "empty",
  },
  {
    method: "POST",
    path: `${RESOURCES}/:uuid/refresh_last_sync/`,
    summary: "Record that the site agent has just synchronised the resource (no body)",
    document: `mutation($id: ID!) { refreshResourceLastSync(input: { id: $id }) { changed } }`,
    variables: byId("Resource"),
    kind: "empty",
  },
  {
    method: "POST",
    path: `${RESOURCES}/:uuid/set_as_ok/`,
    summary: "The provider reports the resource in order: OK, error message cleared (no body)",
    document: `mutation($id: ID!) { setResourceAsOk(input: { id: $id }) { state } }`,
    variables: byId("Resource"),
    kind: "empty",
  },
  {
    method: "POST",
    path: `${RESOURCES}/:uuid/set_as_erred/`,
    summary: "The provider reports the resource failed: Erred, with error_message and error_traceback (no body)",
    document: `mutation($id: ID!, $errorMessage: String, $errorTraceback: String) {
      setResourceAsErred(input: { id: $id, errorMessage: $errorMessage, errorTraceback: $errorTraceback }) { state } }`,
    ...withBody(ERROR_REPORT, (input, request) => ({ id: pathId("Resource", request), ...input })),
    kind: "empty",
  },
  {
    method: "POST",
    path: `${RESOURCES}/:uuid/set_membership_sync_statuses/`,
    summary: "The site agent's full report of each member's sync state (409 unless the offering opts in)",
    document: `mutation($id: ID!, $statuses: JSON!) { setResourceMembershipSyncStatuses(input: { id: $id, statuses: $statuses }) { stored skipped } }`,
    ...withBody(MEMBERSHIP_SYNC, (input, request) => ({ id: pathId("Resource", request), ...input })),
    kind: "object",
  },
];
