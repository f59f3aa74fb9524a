import { COLLECTIONS } from "../collections/rest-paths.ts";
import { RESOURCE_TRANSITIONS } from "./transitions.ts";
import { defineBody, json, type RequestBody, text, withBody } from "../../rest-adapter/body-contract.ts";
import { readFilters } from "../../rest-adapter/collection-query.ts";
import type { JsonSchema } from "../../rest-adapter/openapi/json-schema.ts";
import type { QueryParameters, RouteSpec } from "../../rest-adapter/route.ts";
import { byId, byUuid, listRoute, pathId } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { resourceCollection } from "./schema.ts";

const RESOURCE_REST_FRAGMENT = restFragment(
  "ResourceRest",
  "Resource",
  `url uuid name slug state: stateLabel backend_id: backendId attributes limits current_usages: currentUsages
   restrict_member_access: restrictMemberAccess paused downscaled last_sync: lastSync end_date_updated_at: endDateUpdatedAt
   offering_backend_id: offeringBackendId project_slug: projectSlug customer_slug: customerSlug project_end_date: projectEndDate
   backend_metadata: backendMetadata error_message: errorMessage end_date: endDate scope: scopeUrl
   offering: offeringUrl offering_uuid: offeringUuid offering_name: offeringName offering_type: offeringType
   offering_plugin_options: offeringPluginOptions provider_uuid: providerUuid provider_name: providerName
   plan: planUrl plan_uuid: planUuid plan_name: planName
   project: projectUrl project_uuid: projectUuid project_name: projectName project_description: projectDescription
   customer_uuid: customerUuid customer_name: customerName created modified
   offering_slug: offeringSlug offering_description: offeringDescription offering_state: offeringStateLabel
   offering_shared: offeringShared offering_billable: offeringBillable is_usage_based: isUsageBased is_limit_based: isLimitBased
   offering_components: offeringComponents { uuid type name billing_type: billingTypeLabel measured_unit: measuredUnit
                                             limit_period: limitPeriod limit_amount: limitAmount }
   provider_slug: providerSlug provider_description: providerDescription plan_unit: planUnit
   project_effective_end_date: projectEffectiveEndDate project_is_in_grace_period: projectIsInGracePeriod
   resource_effective_end_date: resourceEffectiveEndDate has_api_keys: hasApiKeys
   usage_limit_restriction: usageLimitRestriction username user_requires_reconsent: userRequiresReconsent`,
);

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
  collection: resourceCollection,
});

const resourceRoutes: RouteSpec[] = [
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
    document: `mutation($id: ID!) { ${RESOURCE_TRANSITIONS.setAsOk.mutation}(input: { id: $id }) { state } }`,
    variables: byId("Resource"),
    kind: "empty",
  },
  {
    method: "POST",
    path: `${RESOURCES}/:uuid/set_as_erred/`,
    summary: "The provider reports the resource failed: Erred, with error_message and error_traceback (no body)",
    document: `mutation($id: ID!, $errorMessage: String, $errorTraceback: String) {
      ${RESOURCE_TRANSITIONS.setAsErred.mutation}(input: { id: $id, errorMessage: $errorMessage, errorTraceback: $errorTraceback }) { state } }`,
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

export const resourceRest: RestSurface = { routes: resourceRoutes, fragments: [RESOURCE_REST_FRAGMENT] };
