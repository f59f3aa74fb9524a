import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { PERSONAS, type Persona } from "../../test/support/world.ts";
import { makeResource, userWithRoles } from "../../test/support/order-fixtures.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BASE = "/api/marketplace-provider-resources";
const post = (path: string, body?: unknown, persona: Persona = "providerOwner") => t.http("POST", path, { token: t.world.tokens[persona], body });
const fresh = () => makeResource(t.app.deps.db, t.world, "OK");

/** Who may write back the backend's state: the provider's owners and managers, offering managers, staff. */
const WRITES: Record<Persona, number> = {
  staff: 200, support: 403, providerOwner: 200, providerManager: 200, providerSupport: 403, offeringManager: 200,
  projectAdmin: 404, projectManager: 404, projectMember: 404, unrelated: 404,
};

describe("backend write-backs", () => {
  it.each(PERSONAS)("%s setting the backend id", async (persona) => {
    const resource = await fresh();
    const response = await post(`${BASE}/${resource.uuid}/set_backend_id/`, { backend_id: `b-${persona}` }, persona);
    expect(response.status, response.text).toBe(WRITES[persona]);
    const stored = await t.app.deps.db.resource.findUniqueOrThrow({ where: { id: resource.id } });
    expect(stored.backendId).toBe(WRITES[persona] === 200 ? `b-${persona}` : "");
  });

  it("says whether the backend id changed and records one event per change", async () => {
    const resource = await fresh();
    const path = `${BASE}/${resource.uuid}/set_backend_id/`;
    expect((await post(path, { backend_id: "x1" })).body).toEqual({ status: "Resource backend_id has been changed." });
    expect((await post(path, { backend_id: "x1" })).body).toEqual({ status: "Resource backend_id is not changed." });
    const events = await t.http("GET", `/api/events/?scope=${t.baseUrl}${BASE}/${resource.uuid}/&event_type=marketplace_resource_updated`, { token: t.world.tokens.staff });
    expect(events.body).toHaveLength(1);
    expect(events.body[0].context).toMatchObject({ old_backend_id: "", new_backend_id: "x1" });
    expect((await post(path, {})).status).toBe(400);
    expect((await post(path, { backend_id: "y".repeat(256) })).status).toBe(400);
  });

  it("replaces backend metadata and limits with objects only", async () => {
    const resource = await fresh();
    const metadata = await post(`${BASE}/${resource.uuid}/set_backend_metadata/`, { backend_metadata: { qos: "normal", nodes: 2 } });
    expect(metadata).toMatchObject({ status: 200, body: { status: "The backend metadata is updated" } });
    const limits = await post(`${BASE}/${resource.uuid}/set_limits/`, { limits: { cpu: 100, ram: 2.5 } });
    expect(limits).toMatchObject({ status: 200, body: { status: "The resource limits are updated" } });
    const stored = (await t.http("GET", `${BASE}/${resource.uuid}/`, { token: t.world.tokens.providerOwner })).body;
    expect(stored).toMatchObject({ backend_metadata: { qos: "normal", nodes: 2 }, limits: { cpu: 100, ram: 2.5 } });
    for (const [action, body] of [
      ["set_backend_metadata", { backend_metadata: [1] }],
      ["set_backend_metadata", {}],
      ["set_limits", { limits: { cpu: "a lot" } }],
      ["set_limits", { limits: { cpu: -1 } }],
      ["set_limits", { limits: "x" }],
    ] as const) {
      const response = await post(`${BASE}/${resource.uuid}/${action}/`, body);
      expect(response.status, `${action} ${JSON.stringify(body)}`).toBe(400);
    }
  });

  it("refreshes last_sync without an audit event", async () => {
    const resource = await fresh();
    const before = (await t.http("GET", `${BASE}/${resource.uuid}/`, { token: t.world.tokens.providerOwner })).body.last_sync;
    expect(before).toEqual(expect.any(String));
    const response = await post(`${BASE}/${resource.uuid}/refresh_last_sync/`);
    expect(response.status).toBe(200);
    expect(response.body, "Waldur answers with no body").toBeUndefined();
    const after = (await t.http("GET", `${BASE}/${resource.uuid}/`, { token: t.world.tokens.providerOwner })).body.last_sync;
    expect(Date.parse(after)).toBeGreaterThanOrEqual(Date.parse(before));
    expect((await post(`${BASE}/${resource.uuid}/refresh_last_sync/`, undefined, "providerSupport")).status).toBe(403);
    const events = await t.http("GET", `/api/events/?scope=${t.baseUrl}${BASE}/${resource.uuid}/`, { token: t.world.tokens.staff });
    expect(events.body).toHaveLength(0);
  });

  it("runs the same through GraphQL", async () => {
    const resource = await fresh();
    const result = await t.gql<any>(
      `mutation($id: ID!) { setResourceLimits(input: { id: $id, limits: { cpu: 5 } }) { ... on ResourceBackendResult { status changed resource { limits } } } }`,
      { id: globalId("Resource", resource.uuid) },
      t.world.tokens.offeringManager,
    );
    expect(result.data.setResourceLimits).toEqual({ status: "The resource limits are updated", changed: true, resource: { limits: { cpu: 5 } } });
  });
});

describe("write-back errors name the input's fields over GraphQL, Waldur's fields over REST", () => {
  const cases: Array<[string, string, Record<string, string[]>, string, Record<string, unknown>]> = [
    ["setResourceBackendMetadata(input: { id: $id, backendMetadata: [1] })", "set_backend_metadata", { backendMetadata: ["Expected a dictionary of items."] }, "backend_metadata", { backend_metadata: [1] }],
    ["setResourceLimits(input: { id: $id, limits: { cpu: -1 } })", "set_limits", { limits: ["Limits must be non-negative numbers: cpu."] }, "limits", { limits: { cpu: -1 } }],
    ["setResourceEndDate(input: { id: $id, endDate: \"31.12.2030\" })", "set_end_date", { endDate: ["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."] }, "end_date", { end_date: "31.12.2030" }],
    [`setResourceBackendId(input: { id: $id, backendId: "${"y".repeat(256)}" })`, "set_backend_id", { backendId: ["Ensure this field has no more than 255 characters."] }, "backend_id", { backend_id: "y".repeat(256) }],
  ];
  for (const [call, action, fields, restName, body] of cases) {
    it(`${Object.keys(fields)[0]} / ${restName}`, async () => {
      const resource = await fresh();
      const result = await t.gql(`mutation($id: ID!) { outcome: ${call} { ${failuresOf("setResourceBackendId")} } }`, { id: globalId("Resource", resource.uuid) }, t.world.tokens.providerOwner);
      expect(result.data.outcome).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
      expect(fieldsOf(result.data.outcome)).toEqual(fields);
      const response = await post(`${BASE}/${resource.uuid}/${action}/`, body);
      expect(response).toMatchObject({ status: 400, body: { [restName]: Object.values(fields)[0] } });
    });
  }
});

describe("team", () => {
  it("lists current project roles with the members' usernames on the offering", async () => {
    const resource = await fresh();
    const member = await t.world.offeringUser("OK", { username: "hpc_member" });
    const expired = await userWithRoles(t.app.deps.db, []);
    await t.app.deps.db.roleGrant.create({
      data: { userId: expired.id, role: "PROJECT.MEMBER", scopeType: "PROJECT", scopeId: t.world.project.id, expirationTime: new Date(Date.now() - 1000) },
    });
    const team = await t.http("GET", `${BASE}/${resource.uuid}/team/`, { token: t.world.tokens.providerOwner });
    expect(team.status, team.text).toBe(200);
    const byName = new Map(team.body.map((m: { username: string }) => [m.username, m]));
    expect([...byName.keys()]).not.toContain(expired.username);
    const memberRow = [...byName.values()].find((m: any) => m.uuid === member.userId.replaceAll("-", "")) as Record<string, unknown>;
    expect(memberRow).toMatchObject({ role: "PROJECT.MEMBER", offering_user_username: "hpc_member", offering_user_state: "OK" });
    expect(byName.get("projectAdmin")).toMatchObject({ role: "PROJECT.ADMIN", offering_user_username: null, offering_user_state: null });
    expect((await t.http("GET", `${BASE}/${resource.uuid}/team/`, { token: t.world.tokens.projectAdmin })).status).toBe(404);
  });

  it("leaves out members without consent when consent is enforced", async () => {
    const enforced = await startTestApp({ enforceUserConsent: true });
    try {
      const db = enforced.app.deps.db;
      const resource = await makeResource(db, enforced.world, "OK");
      await db.offeringTermsOfService.create({ data: { offeringId: enforced.world.offering.id, version: "1", isActive: true, termsOfService: "Be nice" } });
      await db.userOfferingConsent.create({ data: { userId: enforced.world.users.projectAdmin.id, offeringId: enforced.world.offering.id, version: "1" } });
      const team = await enforced.http("GET", `${BASE}/${resource.uuid}/team/`, { token: enforced.world.tokens.providerOwner });
      expect(team.body.map((m: { username: string }) => m.username)).toEqual(["projectAdmin"]);
    } finally {
      await enforced.close();
    }
  });
});

describe("slugs and flags", () => {
  it("derives unique slugs from names on insert and keeps them", async () => {
    const db = t.app.deps.db;
    const [a, b] = [await db.customer.create({ data: { name: "Ünïcode & Co." } }), await db.customer.create({ data: { name: "unicode co" } })];
    expect([a.slug, b.slug]).toEqual(["n-code-co", "unicode-co"]);
    const twins = [await db.customer.create({ data: { name: "Twin" } }), await db.customer.create({ data: { name: "Twin" } })];
    expect(twins.map((c) => c.slug)).toEqual(["twin", "twin-2"]);
    const renamed = await db.customer.update({ where: { id: twins[0].id }, data: { name: "Renamed" } });
    expect(renamed.slug).toBe("twin");
  });

  it("filters provider resources by the paused and restrict_member_access flags", async () => {
    const paused = await fresh();
    await t.app.deps.db.resource.update({ where: { id: paused.id }, data: { paused: true } });
    const list = await t.http("GET", `${BASE}/?paused=true&field=uuid`, { token: t.world.tokens.providerOwner });
    expect(list.body).toEqual([{ uuid: paused.uuid }]);
    const open = await t.http("GET", `${BASE}/?restrict_member_access=false&paused=false&page_size=100`, { token: t.world.tokens.providerOwner });
    expect(open.body.map((r: { uuid: string }) => r.uuid)).not.toContain(paused.uuid);
  });
});
