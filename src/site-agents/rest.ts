import { COLLECTIONS } from "../collections/rest-paths.ts";
import { bodyField, dateTime, defineBody, json, text, withBody } from "../../rest-adapter/body-contract.ts";
import { optionalString } from "../../rest-adapter/input.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { createRoute, deleteRoute, listRoute, pathId, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { agentIdentityCollection } from "./schema.ts";

const AGENT_PROCESSOR_REST_FRAGMENT = restFragment(
  "AgentProcessorRest",
  "AgentProcessor",
  `uuid url service: serviceUuid service_name: serviceName name backend_type: backendType
   backend_version: backendVersion last_run: lastRun created modified`,
);

const AGENT_SERVICE_REST_FRAGMENT = restFragment(
  "AgentServiceRest",
  "AgentService",
  `uuid url identity: identityUuid identity_name: identityName name mode state: stateLabel statistics
   processors { ...AgentProcessorRest } created modified`,
);

const AGENT_IDENTITY_REST_FRAGMENT = restFragment(
  "AgentIdentityRest",
  "AgentIdentity",
  `uuid url offering: offeringUuid offering_name: offeringName created_by: createdByUuid name version
   dependencies { package version } config_file_path: configFilePath config_file_content: configFileContent
   last_restarted: lastRestarted compatibility { status message minimum_required: minimumRequired }
   services { ...AgentServiceRest } created modified`,
);

const IDENTITIES = `/api/${COLLECTIONS.agentIdentity}`;
const SERVICES = `/api/${COLLECTIONS.agentService}`;
const PROCESSORS = `/api/${COLLECTIONS.agentProcessor}`;

/**
 * The agent sends the offering as a bare uuid; a hyperlink works too (its last path segment is read, the domain checks
 * it, and an offering it does not find reads as DRF's invalid hyperlink).
 */
const offering = {
  ...bodyField({ as: "offeringUuid", description: "uuid of the offering (its URL works too)" }, { type: "string" }, (value, name) => {
    const given = optionalString({ [name]: value }, name);
    return given?.replace(/\/$/, "").split("/").at(-1) ?? given;
  }),
  link: true,
};

const DEPENDENCIES = { type: "array", items: { type: "object", properties: { package: { type: "string" }, version: { type: "string" } } } };

const IDENTITY = defineBody({
  offering,
  name: text(),
  version: text(),
  dependencies: json(DEPENDENCIES),
  config_file_path: text(),
  config_file_content: text(),
  last_restarted: dateTime(),
});

/** Registrations are by name; a missing or null one reads as "", which the domain refuses as required. */
const registrationName = text({ description: "Required" });
const SERVICE_REGISTRATION = defineBody({ name: registrationName, mode: text() });
const PROCESSOR_REGISTRATION = defineBody({ name: registrationName, backend_type: text(), backend_version: text() });

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${IDENTITIES}/:uuid/`,
  summary: "Update what an agent reports about itself (the agent PUTs on every start)",
  document: `mutation($input: AgentIdentityUpdateInput!) { updateAgentIdentity(input: $input) { ...AgentIdentityRest } }`,
  ...withBody(IDENTITY, (input, request) => ({ input: { id: pathId("AgentIdentity", request), ...input } })),
  kind: "object",
});

/** A registration answers 201 when it created the row and 200 when it refreshed an existing one. */
const registration = (path: string, summary: string, document: string, reads: Pick<RouteSpec, "body" | "variables">, field: "service" | "processor"): RouteSpec => ({
  method: "POST",
  path,
  summary,
  document,
  ...reads,
  kind: "object",
  status: 201,
  statusOf: (value) => (value.created ? 201 : 200),
  shape: (value) => value[field],
});

const siteAgentRoutes: RouteSpec[] = [
  listRoute({ path: `${IDENTITIES}/`, summary: "List site agent identities of the caller's offerings", collection: agentIdentityCollection }),
  createRoute(`${IDENTITIES}/`, "Register a site agent for an offering (its service provider side only)", "createAgentIdentity", "AgentIdentityRest", IDENTITY, "AgentIdentityInput"),
  retrieveRoute(IDENTITIES, "Retrieve a site agent identity", agentIdentityCollection),
  update("PUT"),
  update("PATCH"),
  deleteRoute(IDENTITIES, "Remove a site agent identity with its services and processors", agentIdentityCollection),
  registration(
    `${IDENTITIES}/:uuid/register_service/`,
    "Register (or refresh) one of the agent's services, by name",
    `mutation($uuid: ID!, $name: String!, $mode: String) {
      registerAgentService(input: { identityUuid: $uuid, name: $name, mode: $mode }) { created service { ...AgentServiceRest } } }`,
    withBody(SERVICE_REGISTRATION, ({ name, ...rest }, { params }) => ({ uuid: params.uuid, name: name ?? "", ...rest })),
    "service",
  ),
  retrieveRoute(SERVICES, "Retrieve a site agent service", "agentService", "AgentServiceRest"),
  registration(
    `${SERVICES}/:uuid/register_processor/`,
    "Register (or refresh) a processor of an agent service, by name",
    `mutation($uuid: ID!, $name: String!, $backendType: String, $backendVersion: String) {
      registerAgentProcessor(input: { serviceUuid: $uuid, name: $name, backendType: $backendType, backendVersion: $backendVersion }) {
        created processor { ...AgentProcessorRest } } }`,
    withBody(PROCESSOR_REGISTRATION, ({ name, ...rest }, { params }) => ({ uuid: params.uuid, name: name ?? "", ...rest })),
    "processor",
  ),
  retrieveRoute(PROCESSORS, "Retrieve a site agent processor", "agentProcessor", "AgentProcessorRest"),
];

export const siteAgentRest: RestSurface = {
  routes: siteAgentRoutes,
  fragments: [AGENT_PROCESSOR_REST_FRAGMENT, AGENT_SERVICE_REST_FRAGMENT, AGENT_IDENTITY_REST_FRAGMENT],
};
