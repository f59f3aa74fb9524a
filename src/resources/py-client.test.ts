import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { WALDUR, responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { toHex } from "../platform/ids.ts";

/** Every provider-resource response parses with Waldur's py-client models, on data that fills every field we return. */

let t: TestApp;
let resource: string;
let scope: string;
const BASE = "/api/marketplace-provider-resources";

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const { world } = t;
  await db.project.update({ where: { id: world.project.id }, data: { endDate: new Date("2031-01-01") } });
  await db.serviceProvider.update({ where: { id: world.serviceProvider.id }, data: { description: "Our HPC centre" } });
  await db.offeringComponent.updateMany({ where: { offeringId: world.offering.id, type: "cpu" }, data: { limitPeriod: "month", limitAmount: 100 } });
  await db.offeringComponent.create({ data: { offeringId: world.offering.id, type: "nodes", name: "Nodes", billingType: "LIMIT", measuredUnit: "nodes" } });
  await db.offeringTermsOfService.create({ data: { offeringId: world.offering.id, version: "2", isActive: true, requiresReconsent: true } });
  await db.userOfferingConsent.create({ data: { userId: world.users.providerOwner.id, offeringId: world.offering.id, version: "1" } });
  await db.offeringUser.create({ data: { offeringId: world.offering.id, userId: world.users.providerOwner.id, username: "owner01", state: "OK" } });
  await db.offeringUser.create({ data: { offeringId: world.offering.id, userId: world.users.projectAdmin.id, username: "admin01", state: "OK" } });
  const plan = await db.offeringPlan.create({ data: { offeringId: world.offering.id, name: "Gold", unit: "month" } });
  const backend = await db.resource.create({ data: { name: "backend", offeringId: world.offering.id, projectId: world.project.id, state: "OK" } });
  const row = await db.resource.create({
    data: {
      name: "full", offeringId: world.offering.id, projectId: world.project.id, state: "OK", planId: plan.id, scopeId: backend.id,
      backendId: "hpc_full", attributes: { partition: "gpu" }, limits: { nodes: 4 }, currentUsages: { cpu: "6.40" },
      backendMetadata: { qos: "normal" }, errorMessage: "", endDate: new Date("2030-06-30"), endDateUpdatedAt: new Date(),
      lastSync: new Date(), restrictMemberAccess: true,
    },
  });
  resource = toHex(row.id);
  scope = toHex(backend.id);
});
afterAll(() => t.close());

const get = (path: string) => t.http("GET", path, { token: t.world.tokens.providerOwner });
const problemsOf = (method: string, served: string, body: unknown) => {
  const operation = waldurOperation(method, served);
  expect(operation, `${method} ${served} is a py-client operation`).toBeDefined();
  return responseProblems(operation!, body);
};

describe("py-client parses", () => {
  it("the list and a retrieve, with every derivable field", async () => {
    const list = await get(`${BASE}/?page_size=100`);
    expect(list.status).toBe(200);
    expect(problemsOf("GET", `${BASE}/`, list.body)).toEqual([]);
    const one = await get(`${BASE}/${resource}/`);
    expect(problemsOf("GET", `${BASE}/:uuid/`, one.body)).toEqual([]);
    expect(one.body).toMatchObject({
      plan_unit: "month", plan_name: "Gold", scope: `${t.baseUrl}${BASE}/${scope}/`, offering_slug: "hpc", offering_state: "Active",
      offering_shared: true, offering_billable: true, is_usage_based: true, is_limit_based: true, provider_slug: "provider-org",
      provider_description: "Our HPC centre", project_end_date: "2031-01-01", project_effective_end_date: "2031-01-01",
      project_is_in_grace_period: false, resource_effective_end_date: "2030-06-30", has_api_keys: false, usage_limit_restriction: "",
      username: "owner01", user_requires_reconsent: true, restrict_member_access: true,
    });
    expect(one.body.offering_components.map((c: { type: string; billing_type: string }) => [c.type, c.billing_type])).toEqual([
      ["cpu", "usage"], ["nodes", "limit"], ["ram", "usage"],
    ]);
    const optional = Object.keys(WALDUR.models.Resource.optional);
    expect(Object.keys(one.body).filter((key) => !optional.includes(key))).toEqual([]);
  });

  it("a resource without plan, scope or dates", async () => {
    const bare = await t.app.deps.db.resource.create({ data: { name: "bare", offeringId: t.world.offering.id, projectId: t.world.project.id } });
    const one = await t.http("GET", `${BASE}/${toHex(bare.id)}/`, { token: t.world.tokens.staff });
    expect(problemsOf("GET", `${BASE}/:uuid/`, one.body)).toEqual([]);
    expect(one.body).toMatchObject({ plan: "", scope: "", plan_uuid: null, plan_unit: null, username: null, end_date: null });
  });

  it("details/ with a backend object, and team/", async () => {
    const details = await get(`${BASE}/${resource}/details/`);
    expect(details.status).toBe(200);
    expect(problemsOf("GET", `${BASE}/:uuid/`, details.body)).toEqual([]);
    const team = await get(`${BASE}/${resource}/team/`);
    expect(problemsOf("GET", `${BASE}/:uuid/team/`, team.body)).toEqual([]);
    expect(team.body.find((m: { username: string }) => m.username === "projectAdmin")).toMatchObject({
      offering_user_username: "admin01", offering_user_state: "OK", email: "projectAdmin@example.org", role: "PROJECT.ADMIN",
    });
  });

  // Waldur's view answers 404 for a resource with no backend object, and documents 204 for a backend object whose type
  // has no serializer; every backend object here is a marketplace resource, which has one.
  it("details/ without a backend object: an empty 404, an answer Waldur documents", async () => {
    const bare = await t.app.deps.db.resource.create({ data: { name: "no scope", offeringId: t.world.offering.id, projectId: t.world.project.id } });
    const details = await get(`${BASE}/${toHex(bare.id)}/details/`);
    expect([details.status, details.text]).toEqual([404, ""]);
    expect(waldurOperation("GET", `${BASE}/:uuid/details/`)?.statuses).toEqual([200, 204, 404]);
  });

  it("the write-backs (Status) and the state actions (no body)", async () => {
    const post = (action: string, body?: unknown) => t.http("POST", `${BASE}/${resource}/${action}/`, { token: t.world.tokens.providerOwner, body });
    for (const [action, body] of [["set_backend_id", { backend_id: "x" }], ["set_backend_metadata", { backend_metadata: {} }], ["set_limits", { limits: {} }]] as const) {
      const response = await post(action, body);
      expect(problemsOf("POST", `${BASE}/:uuid/${action}/`, response.body), action).toEqual([]);
    }
    for (const [action, body] of [["set_as_erred", { error_message: "x", error_traceback: "y" }], ["set_as_ok", undefined], ["refresh_last_sync", undefined]] as const) {
      const response = await post(action, body);
      expect([response.status, response.text], action).toEqual([200, ""]);
    }
  });
});
