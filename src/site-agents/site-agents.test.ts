import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { PERSONAS, type Persona } from "../../test/support/world.ts";
import { globalId } from "../../test/support/global-ids.ts";

const IDENTITIES = "/api/marketplace-site-agent-identities/";

let t: TestApp;
let counter = 0;
beforeAll(async () => {
  t = await startTestApp({ siteAgentMinimumVersion: "1.0.5" });
});
afterAll(async () => {
  await t.close();
});

const identityBody = (extra: Record<string, unknown> = {}) => ({
  offering: t.world.offering.uuid,
  name: `agent-${++counter}`,
  version: "1.0.6rc17",
  dependencies: [{ package: "waldur-api-client", version: "8.1.2" }],
  ...extra,
});
const register = (persona: Persona = "providerOwner", extra: Record<string, unknown> = {}) =>
  t.http("POST", IDENTITIES, { token: t.world.tokens[persona], body: identityBody(extra) });

describe("who may register an agent", () => {
  const allowed: Persona[] = ["staff", "providerOwner", "providerManager", "offeringManager"];
  it.each(PERSONAS.map((persona) => [persona, allowed.includes(persona)] as const))("%s → allowed: %s", async (persona, isAllowed) => {
    const response = await register(persona);
    expect(response.status, response.text).toBe(isAllowed ? 201 : 403);
    if (isAllowed) expect(response.body.created_by).toBe(t.world.users[persona].uuid);
  });

  it("lists identities only to the provider side, staff and support", async () => {
    const created = await register();
    for (const persona of PERSONAS) {
      const list = await t.http("GET", `${IDENTITIES}?name=${created.body.name}`, { token: t.world.tokens[persona] });
      const sees = ["staff", "support", "providerOwner", "providerManager", "providerSupport", "offeringManager"].includes(persona);
      expect(list.body, persona).toHaveLength(sees ? 1 : 0);
      const one = await t.http("GET", `${IDENTITIES}${created.body.uuid}/`, { token: t.world.tokens[persona] });
      expect(one.status, persona).toBe(sees ? 200 : 404);
    }
    expect((await t.http("GET", IDENTITIES)).status).toBe(401);
  });
});

describe("identity fields and validation", () => {
  it("judges the reported version against SITE_AGENT_MINIMUM_VERSION", async () => {
    expect((await register("providerOwner", { version: "1.0.6rc17" })).body.compatibility).toMatchObject({ status: "compatible", minimum_required: "1.0.5" });
    expect((await register("providerOwner", { version: "0.9.1" })).body.compatibility.status).toBe("incompatible");
    expect((await register("providerOwner", { version: null })).body.compatibility.status).toBe("unknown");
  });

  it("rejects bad bodies with field errors", async () => {
    const token = t.world.tokens.providerOwner;
    const cases: Array<[unknown, string]> = [
      [{ name: "x" }, "offering"],
      [{ offering: t.world.offering.uuid }, "name"],
      [{ offering: "not-a-uuid", name: "x" }, "offering"],
      [{ offering: "0".repeat(32), name: "x" }, "offering"],
      [{ ...identityBody(), dependencies: [{ package: 1 }] }, "dependencies"],
      [{ ...identityBody(), dependencies: "x" }, "dependencies"],
      [{ ...identityBody(), name: "n".repeat(256) }, "name"],
      [{ ...identityBody(), last_restarted: "yesterday" }, "last_restarted"],
    ];
    for (const [body, field] of cases) {
      const response = await t.http("POST", IDENTITIES, { token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toHaveProperty(field);
    }
  });

  it("an unknown offering reads as DRF's invalid hyperlink, as it does in Waldur", async () => {
    for (const offering of ["0".repeat(32), "not-a-uuid"]) {
      const response = await t.http("POST", IDENTITIES, { token: t.world.tokens.providerOwner, body: identityBody({ offering }) });
      expect([response.status, response.body]).toEqual([400, { offering: ["Invalid hyperlink - Object does not exist."] }]);
    }
  });

  it("refuses a second identity with the same name for the offering, also when registered concurrently", async () => {
    const body = identityBody();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => t.http("POST", IDENTITIES, { token: t.world.tokens.providerOwner, body })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
    expect(responses.find((r) => r.status === 400)!.body).toEqual({ name: ["Agent identity with this name already exists for the offering."] });
  });

  it("updates with PUT and PATCH but never moves an identity to another offering", async () => {
    const created = await register();
    const token = t.world.tokens.providerOwner;
    const put = await t.http("PUT", `${IDENTITIES}${created.body.uuid}/`, { token, body: { ...identityBody({ name: created.body.name }), version: "1.1.0" } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ uuid: created.body.uuid, version: "1.1.0" });
    const patch = await t.http("PATCH", `${IDENTITIES}${created.body.uuid}/`, { token, body: { config_file_path: "/etc/waldur/agent.yaml" } });
    expect(patch.body).toMatchObject({ version: "1.1.0", config_file_path: "/etc/waldur/agent.yaml" });
    const other = await t.app.deps.db.offering.create({ data: { customerId: t.world.provider.id, name: "Other", type: "Marketplace.Slurm" } });
    const moved = await t.http("PATCH", `${IDENTITIES}${created.body.uuid}/`, { token, body: { offering: other.id } });
    expect(moved.status).toBe(400);
    expect(moved.body).toHaveProperty("offering");
    const byOther = await t.http("PUT", `${IDENTITIES}${created.body.uuid}/`, { token: t.world.tokens.projectAdmin, body: identityBody() });
    expect(byOther.status).toBe(404);
  });

  it("deletes with its services and processors, recording events", async () => {
    const created = await register();
    const token = t.world.tokens.providerOwner;
    const service = await t.http("POST", `${IDENTITIES}${created.body.uuid}/register_service/`, { token, body: { name: "report", mode: "report" } });
    await t.http("POST", `/api/marketplace-site-agent-services/${service.body.uuid}/register_processor/`, { token, body: { name: "P", backend_type: "x" } });
    expect((await t.http("DELETE", `${IDENTITIES}${created.body.uuid}/`, { token })).status).toBe(204);
    expect((await t.http("GET", `/api/marketplace-site-agent-services/${service.body.uuid}/`, { token })).status).toBe(404);
    const events = await t.http("GET", `/api/events/?event_type=marketplace_site_agent_removed`, { token: t.world.tokens.staff });
    expect(events.body.map((e: { context: { agent_name: string } }) => e.context.agent_name)).toContain(created.body.name);
  });
});

describe("service and processor registration", () => {
  it("creates once (201) and refreshes afterwards (200), also under concurrency", async () => {
    const identity = await register();
    const token = t.world.tokens.offeringManager;
    const path = `${IDENTITIES}${identity.body.uuid}/register_service/`;
    const first = await Promise.all(Array.from({ length: 4 }, () => t.http("POST", path, { token, body: { name: "order_process", mode: "order_process" } })));
    expect(first.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(first.map((r) => r.body.uuid)).size).toBe(1);
    const modeChanged = await t.http("POST", path, { token, body: { name: "order_process", mode: "event_process" } });
    expect(modeChanged).toMatchObject({ status: 200, body: { mode: "event_process", state: "Active" } });

    const processorPath = `/api/marketplace-site-agent-services/${first[0].body.uuid}/register_processor/`;
    const created = await t.http("POST", processorPath, { token, body: { name: "OfferingOrderProcessor", backend_type: "slurm", backend_version: "1" } });
    expect(created.status).toBe(201);
    const refreshed = await t.http("POST", processorPath, { token, body: { name: "OfferingOrderProcessor", backend_type: "slurm", backend_version: "2" } });
    expect(refreshed).toMatchObject({ status: 200, body: { uuid: created.body.uuid, backend_version: "2" } });
    expect((await t.http("GET", `/api/marketplace-site-agent-processors/${created.body.uuid}/`, { token })).body.service_name).toBe("order_process");
  });

  it("refuses registration by others and bad bodies", async () => {
    const identity = await register();
    const path = `${IDENTITIES}${identity.body.uuid}/register_service/`;
    expect((await t.http("POST", path, { token: t.world.tokens.providerSupport, body: { name: "x" } })).status).toBe(403);
    expect((await t.http("POST", path, { token: t.world.tokens.unrelated, body: { name: "x" } })).status).toBe(404);
    const blank = await t.http("POST", path, { token: t.world.tokens.providerOwner, body: { name: " " } });
    expect(blank).toMatchObject({ status: 400, body: { name: ["This field is required."] } });
    expect((await t.http("POST", `/api/marketplace-site-agent-services/${"f".repeat(32)}/register_processor/`, { token: t.world.tokens.staff, body: { name: "x" } })).status).toBe(404);
  });

  it("shows a service Idle after an hour without registration", async () => {
    const identity = await register();
    const service = await t.http("POST", `${IDENTITIES}${identity.body.uuid}/register_service/`, {
      token: t.world.tokens.providerOwner,
      body: { name: "membership_sync" },
    });
    await t.app.deps.db.agentService.update({ where: { id: service.body.uuid }, data: { modified: new Date(Date.now() - 2 * 3600_000) } });
    const again = await t.http("GET", `/api/marketplace-site-agent-services/${service.body.uuid}/`, { token: t.world.tokens.providerOwner });
    expect(again.body.state).toBe("Idle");
  });
});

describe("GraphQL", () => {
  it("registers and reads agents like REST", async () => {
    const token = t.world.tokens.providerManager;
    const created = await t.gql<any>(
      `mutation($input: AgentIdentityInput!) { createAgentIdentity(input: $input) { ... on AgentIdentity { uuid name offering { uuid } compatibility { status } } } }`,
      { input: { offeringUuid: t.world.offering.uuid, name: "gql-agent", version: "2.0.0", dependencies: [] } },
      token,
    );
    expect(created.errors).toBeUndefined();
    const uuid = created.data.createAgentIdentity.uuid;
    const service = await t.gql<any>(
      `mutation { registerAgentService(input: { identityUuid: "${uuid}", name: "report" }) { ... on AgentRegistration { created service { uuid state } } } }`,
      {},
      token,
    );
    expect(service.data.registerAgentService).toMatchObject({ created: true, service: { state: "ACTIVE" } });
    const listed = await t.gql<any>(`{ agentIdentities(filter: { name: "gql-agent" }) { totalCount nodes { uuid services { name } } } }`, {}, token);
    expect(listed.data.agentIdentities).toEqual({ totalCount: 1, nodes: [{ uuid, services: [{ name: "report" }] }] });
    const denied = await t.gql<any>(
      `mutation($id: ID!) { deleteAgentIdentity(input: { id: $id }) { ... on Error { code } } }`,
      { id: globalId("AgentIdentity", uuid) },
      t.world.tokens.support,
    );
    expect(denied.data.deleteAgentIdentity).toEqual({ code: "FORBIDDEN" });
  });

  it("names field errors as the input names them", async () => {
    const token = t.world.tokens.providerOwner;
    const create = `mutation($input: AgentIdentityInput!) { createAgentIdentity(input: $input) { ... on AgentIdentity { uuid } ${failuresOf("createAgentIdentity")} } }`;
    const fieldsOfCreate = async (input: Record<string, unknown>) => fieldsOf((await t.gql<any>(create, { input }, token)).data.createAgentIdentity);
    expect(await fieldsOfCreate({ version: "1" })).toEqual({ offeringUuid: ["This field is required."], name: ["This field is required."] });
    expect(await fieldsOfCreate({ offeringUuid: t.world.offering.uuid, name: "long-path", configFilePath: "p".repeat(501) })).toEqual({
      configFilePath: ["Ensure this field has no more than 500 characters."],
    });
    expect(await fieldsOfCreate({ offeringUuid: "0".repeat(32), name: "nowhere" })).toEqual({ offeringUuid: ["Object does not exist."] });

    const identity = (await register()).body.uuid;
    const service = await t.gql<any>(
      `mutation($uuid: ID!) { registerAgentService(input: { identityUuid: $uuid, name: "s" }) { ... on AgentRegistration { service { uuid } } } }`,
      { uuid: identity },
      token,
    );
    const processor = await t.gql<any>(
      `mutation($uuid: ID!, $type: String) { registerAgentProcessor(input: { serviceUuid: $uuid, name: "p", backendType: $type }) { ... on AgentRegistration { created } ${failuresOf("registerAgentProcessor")} } }`,
      { uuid: service.data.registerAgentService.service.uuid, type: "b".repeat(256) },
      token,
    );
    expect(processor.data.registerAgentProcessor).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(processor.data.registerAgentProcessor)).toEqual({ backendType: ["Ensure this field has no more than 255 characters."] });
  });
});
