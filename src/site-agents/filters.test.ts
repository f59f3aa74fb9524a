import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { toHex } from "../platform/ids.ts";

/** Waldur's filters of the site agent identity list, and the agent's responses as py-client reads them. */

const IDENTITIES = "/api/marketplace-site-agent-identities/";
const SERVICES = "/api/marketplace-site-agent-services/";
const PROCESSORS = "/api/marketplace-site-agent-processors/";

let t: TestApp;
const ids: Record<string, string> = {};
let otherOffering: string;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const other = await db.offering.create({ data: { customerId: t.world.provider.id, name: "Other", type: "Marketplace.Slurm" } });
  otherOffering = toHex(other.id);
  const rows = [
    { key: "a1", offeringId: t.world.offering.id, name: "alpha", version: "1.0.0", lastRestarted: new Date("2024-05-01T00:00:00Z"), created: new Date("2024-01-01T00:00:00Z"), service: true },
    { key: "a2", offeringId: t.world.offering.id, name: "beta", version: "2.0.0", lastRestarted: null, created: new Date("2024-06-01T00:00:00Z"), service: false },
    { key: "a3", offeringId: other.id, name: "alpha", version: "1.0.0", lastRestarted: new Date("2024-01-01T00:00:00Z"), created: new Date("2023-12-01T00:00:00Z"), service: true },
  ];
  for (const { key, service, ...data } of rows) {
    const identity = await db.agentIdentity.create({ data });
    if (service) await db.agentService.create({ data: { identityId: identity.id, name: "order_process" } });
    ids[key] = toHex(identity.id);
  }
});
afterAll(() => t.close());

async function list(query: string) {
  const res = await t.http("GET", `${IDENTITIES}?${query}`, { token: t.world.tokens.providerOwner });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.body as Array<{ uuid: string }>).map((row) => Object.keys(ids).find((key) => ids[key] === row.uuid) ?? row.uuid);
}

describe("identity list filters (newest registration first)", () => {
  const cases: Array<[string, () => string, string[]]> = [
    ["no filter", () => "", ["a2", "a1", "a3"]],
    ["name (exact)", () => "name=alpha", ["a1", "a3"]],
    ["name is case-sensitive", () => "name=Alpha", []],
    ["offering_uuid", () => `offering_uuid=${otherOffering}`, ["a3"]],
    ["version (exact)", () => "version=1.0.0", ["a1", "a3"]],
    ["version with no exact match", () => "version=1.0", []],
    ["last_restarted: at or after; never restarted counts from registration", () => "last_restarted=2024-04-01", ["a2", "a1"]],
    ["last_restarted later", () => "last_restarted=2024-05-15T00:00:00Z", ["a2"]],
    ["orphaned=true: no services", () => "orphaned=true", ["a2"]],
    ["orphaned=false", () => "orphaned=false", ["a1", "a3"]],
    ["filters combine", () => `orphaned=false&offering_uuid=${toHex(t.world.offering.id)}`, ["a1"]],
  ];
  for (const [name, query, expected] of cases) {
    it(name, async () => expect(await list(query())).toEqual(expected));
  }

  it("a malformed last_restarted or orphaned → 400 naming it", async () => {
    for (const [query, field] of [["last_restarted=soon", "last_restarted"], ["orphaned=maybe", "orphaned"]]) {
      const res = await t.http("GET", `${IDENTITIES}?${query}`, { token: t.world.tokens.staff });
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body)).toEqual([field]);
    }
  });

  it("GraphQL takes them under their argument names", async () => {
    const res = await t.gql(
      `query($filter: AgentIdentityFilter) { agentIdentities(filter: $filter, orderBy: [CREATED_ASC]) { nodes { uuid } } }`,
      { filter: { orphaned: false, version: "1.0.0", lastRestartedAfter: "2023-12-31T00:00:00Z" } },
      t.world.tokens.staff,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.agentIdentities.nodes).toEqual([{ uuid: ids.a3 }, { uuid: ids.a1 }]);
  });
});

describe("agent responses as py-client reads them", () => {
  const problems = (method: string, path: string, body: unknown) => responseProblems(waldurOperation(method, path)!, body);

  it("identity create, update, retrieve and list; service and processor registration and retrieval", async () => {
    const token = t.world.tokens.providerOwner;
    const body = {
      offering: t.world.offering.uuid,
      name: "full-agent",
      version: "1.2.3",
      dependencies: [{ package: "waldur-api-client", version: "8.1.2" }],
      config_file_path: "/etc/waldur/agent.yaml",
      config_file_content: "offerings: []",
      last_restarted: "2024-07-01T00:00:00Z",
    };
    const created = await t.http("POST", IDENTITIES, { token, body });
    expect(created.status).toBe(201);
    expect(problems("POST", IDENTITIES, created.body)).toEqual([]);
    const updated = await t.http("PUT", `${IDENTITIES}${created.body.uuid}/`, { token, body: { ...body, version: "1.2.4" } });
    expect(problems("PUT", `${IDENTITIES}:uuid/`, updated.body)).toEqual([]);

    const service = await t.http("POST", `${IDENTITIES}${created.body.uuid}/register_service/`, { token, body: { name: "report", mode: "report" } });
    expect(service.status).toBe(201);
    expect(problems("POST", `${IDENTITIES}:uuid/register_service/`, service.body)).toEqual([]);
    const processor = await t.http("POST", `${SERVICES}${service.body.uuid}/register_processor/`, {
      token,
      body: { name: "OfferingReportProcessor", backend_type: "slurm", backend_version: "23.11" },
    });
    expect(processor.status).toBe(201);
    expect(problems("POST", `${SERVICES}:uuid/register_processor/`, processor.body)).toEqual([]);
    expect(problems("GET", `${SERVICES}:uuid/`, (await t.http("GET", `${SERVICES}${service.body.uuid}/`, { token })).body)).toEqual([]);
    expect(problems("GET", `${PROCESSORS}:uuid/`, (await t.http("GET", `${PROCESSORS}${processor.body.uuid}/`, { token })).body)).toEqual([]);

    const one = await t.http("GET", `${IDENTITIES}${created.body.uuid}/`, { token });
    expect(one.body.services[0].processors[0]).toMatchObject({ name: "OfferingReportProcessor", backend_version: "23.11" });
    expect(problems("GET", `${IDENTITIES}:uuid/`, one.body)).toEqual([]);
    const all = await t.http("GET", IDENTITIES, { token });
    expect(all.body).toHaveLength(4);
    expect(problems("GET", IDENTITIES, all.body)).toEqual([]);
  });
});
