import { AGENT_IDENTITY_CONTRACT } from "../../src/site-agents/contract.ts";
import { compact, optionalDateTime, optionalString } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { deleteRoute, listRoute, retrieveRoute } from "./common.ts";

const IDENTITIES = "/api/marketplace-site-agent-identities";
const SERVICES = "/api/marketplace-site-agent-services";
const PROCESSORS = "/api/marketplace-site-agent-processors";

/** The agent sends the offering as a bare uuid; a hyperlink works too. */
const offeringOf = (body: Record<string, unknown>) => {
  const value = optionalString(body, "offering");
  return value?.replace(/\/$/, "").split("/").at(-1) ?? value;
};

const identityInput = ({ body }: RestRequest) =>
  compact({
    offeringUuid: offeringOf(body),
    name: optionalString(body, "name"),
    version: optionalString(body, "version"),
    dependencies: body.dependencies,
    configFilePath: optionalString(body, "config_file_path"),
    configFileContent: optionalString(body, "config_file_content"),
    lastRestarted: optionalDateTime(body, "last_restarted"),
  });

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${IDENTITIES}/:uuid/`,
  summary: "Update what an agent reports about itself (the agent PUTs on every start)",
  document: `mutation($uuid: ID!, $input: AgentIdentityUpdateInput!) { updateAgentIdentity(uuid: $uuid, input: $input) { ...AgentIdentityRest } }`,
  variables: (request) => ({ uuid: request.params.uuid, input: identityInput(request) }),
  kind: "object",
});

/** A registration answers 201 when it created the row and 200 when it refreshed an existing one. */
const registration = (path: string, summary: string, document: string, variables: RouteSpec["variables"], field: "service" | "processor"): RouteSpec => ({
  method: "POST",
  path,
  summary,
  document,
  variables,
  kind: "object",
  status: 201,
  statusOf: (value) => (value.created ? 201 : 200),
  shape: (value) => value[field],
});

export const siteAgentRoutes: RouteSpec[] = [
  listRoute({
    path: `${IDENTITIES}/`,
    summary: "List site agent identities of the caller's offerings",
    field: "agentIdentities",
    type: "AgentIdentity",
    fragment: "AgentIdentityRest",
    contract: AGENT_IDENTITY_CONTRACT,
  }),
  {
    method: "POST",
    path: `${IDENTITIES}/`,
    summary: "Register a site agent for an offering (its service provider side only)",
    document: `mutation($input: AgentIdentityInput!) { createAgentIdentity(input: $input) { ...AgentIdentityRest } }`,
    variables: (request) => ({ input: identityInput(request) }),
    kind: "object",
    status: 201,
  },
  retrieveRoute(IDENTITIES, "Retrieve a site agent identity", "agentIdentity", "AgentIdentityRest"),
  update("PUT"),
  update("PATCH"),
  deleteRoute(IDENTITIES, "Remove a site agent identity with its services and processors", "deleteAgentIdentity"),
  registration(
    `${IDENTITIES}/:uuid/register_service/`,
    "Register (or refresh) one of the agent's services, by name",
    `mutation($uuid: ID!, $name: String!, $mode: String) {
      registerAgentService(identityUuid: $uuid, name: $name, mode: $mode) { created service { ...AgentServiceRest } } }`,
    ({ params, body }) => compact({ uuid: params.uuid, name: optionalString(body, "name") ?? "", mode: optionalString(body, "mode") }),
    "service",
  ),
  retrieveRoute(SERVICES, "Retrieve a site agent service", "agentService", "AgentServiceRest"),
  registration(
    `${SERVICES}/:uuid/register_processor/`,
    "Register (or refresh) a processor of an agent service, by name",
    `mutation($uuid: ID!, $name: String!, $backendType: String, $backendVersion: String) {
      registerAgentProcessor(serviceUuid: $uuid, name: $name, backendType: $backendType, backendVersion: $backendVersion) {
        created processor { ...AgentProcessorRest } } }`,
    ({ params, body }) =>
      compact({
        uuid: params.uuid,
        name: optionalString(body, "name") ?? "",
        backendType: optionalString(body, "backend_type"),
        backendVersion: optionalString(body, "backend_version"),
      }),
    "processor",
  ),
  retrieveRoute(PROCESSORS, "Retrieve a site agent processor", "agentProcessor", "AgentProcessorRest"),
];
