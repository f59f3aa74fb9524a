import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import type { Persona } from "../../test/support/world.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BASE = "/api/marketplace-provider-offerings";
const as = (persona: Persona) => t.world.tokens[persona];
const names = (body: Array<{ name: string }>) => body.map((o) => o.name).sort();

const OFFERING = {
  name: "Cloud VMs",
  type: "Marketplace.Basic",
  description: "Virtual machines",
  plugin_options: { service_provider_can_create_offering_user: true, username_generation_policy: "service_provider" },
  components: [
    { type: "cpu", name: "CPU hours", billing_type: "usage", measured_unit: "hours" },
    { type: "storage", name: "Storage", billing_type: "limit", measured_unit: "GB", limit_period: "month", limit_amount: 100 },
  ],
  plans: [{ name: "Standard", unit_price: "12.5", unit: "month" }, { name: "Free" }],
};

const PLAN_URL = /\/api\/marketplace-plans\/[0-9a-f]{32}\/$/;

async function createOffering(name: string, extra: Record<string, unknown> = {}) {
  const res = await t.http("POST", `${BASE}/`, { token: as("providerOwner"), body: { customer: t.world.provider.uuid, name, type: "Marketplace.Basic", ...extra } });
  expect(res.status).toBe(201);
  return res.body as { uuid: string; state: string };
}

describe("create", () => {
  it("the provider's owner creates a Draft offering with components, plans and plugin_options: 201", async () => {
    const res = await t.http("POST", `${BASE}/`, {
      token: as("providerOwner"),
      body: { customer: `${t.baseUrl}/api/customers/${t.world.provider.uuid}/`, ...OFFERING },
    });
    expect(res.status).toBe(201);
    const uuid = res.body.uuid;
    expect(res.body).toEqual({
      url: `${t.baseUrl}${BASE}/${uuid}/`,
      uuid: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: "Cloud VMs",
      type: "Marketplace.Basic",
      description: "Virtual machines",
      state: "Draft",
      plugin_options: OFFERING.plugin_options,
      partitions: [],
      backend_id: "",
      created: expect.stringMatching(/Z$/),
      customer: `${t.baseUrl}/api/customers/${t.world.provider.uuid}/`,
      customer_uuid: t.world.provider.uuid,
      customer_name: "Provider Org",
      slug: "cloud-vms",
      shared: true,
      billable: true,
      attributes: {},
      order_count: 0,
      total_customers: 0,
      total_cost: 0,
      total_cost_estimated: 0,
      components: [
        { uuid: expect.any(String), type: "cpu", name: "CPU hours", billing_type: "usage", measured_unit: "hours", limit_period: null, limit_amount: null, offering_uuid: uuid },
        { uuid: expect.any(String), type: "storage", name: "Storage", billing_type: "limit", measured_unit: "GB", limit_period: "month", limit_amount: 100, offering_uuid: uuid },
      ],
      plans: [
        { url: expect.stringMatching(PLAN_URL), uuid: expect.any(String), name: "Free", unit_price: "0.0000000000", unit: "month", archived: false, resources_count: 0 },
        { url: expect.stringMatching(PLAN_URL), uuid: expect.any(String), name: "Standard", unit_price: "12.5000000000", unit: "month", archived: false, resources_count: 0 },
      ],
    });
    for (const plan of res.body.plans) expect(plan.url).toBe(`${t.baseUrl}/api/marketplace-plans/${plan.uuid}/`);
    const retrieved = await t.http("GET", `${BASE}/${uuid}/`, { token: as("providerManager") });
    expect(retrieved.status).toBe(200);
    expect(retrieved.body).toEqual(res.body);
  });

  it("keeps the partitions and backend id given at creation, for the site agent", async () => {
    const partitions = [{ partition_name: "gpu", qos: "normal", max_time: 1440 }, { partition_name: "cpu" }];
    const created = await createOffering("Partitioned", { partitions, backend_id: "cluster-a" });
    const read = await t.http("GET", `${BASE}/${created.uuid}/?field=partitions&field=backend_id`, { token: as("providerOwner") });
    expect(read.body).toEqual({ partitions, backend_id: "cluster-a" });
  });

  const INVALID: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ["invalid billing_type", { components: [{ type: "cpu", name: "CPU", billing_type: "hourly" }] }, { components: ["billing_type must be one of usage, fixed, limit, one."] }],
    ["missing billing_type", { components: [{ type: "cpu", name: "CPU" }] }, { components: ["billing_type must be one of usage, fixed, limit, one."] }],
    ["duplicate component types", { components: [{ type: "cpu", billing_type: "usage" }, { type: "cpu", billing_type: "fixed" }] }, { components: ["Component types must be unique."] }],
    ["components not a list", { components: { type: "cpu" } }, { components: ["Expected a list of items."] }],
    ["a limit period Waldur does not know", { components: [{ type: "cpu", billing_type: "limit", limit_period: "weekly" }] }, { components: ["limit_period must be one of annual, month, quarterly, total."] }],
    ["a plan unit Waldur does not know", { plans: [{ name: "p", unit: "fortnight" }] }, { plans: ["unit must be one of day, half_month, hour, month, quantity, quarter."] }],
    ["a plan without a name", { plans: [{ unit_price: "1" }] }, { plans: ["Each plan needs a name."] }],
    ["a plan price that is not a number", { plans: [{ name: "p", unit_price: "cheap" }] }, { plans: ["unit_price: A valid number is required."] }],
    ["a plan price with 11 decimals", { plans: [{ name: "p", unit_price: "0.00000000001" }] }, { plans: ["unit_price: Ensure that there are no more than 10 decimal places."] }],
    ["plugin_options not an object", { plugin_options: ["a"] }, { plugin_options: ["Expected a dictionary of items."] }],
    ["a partition without a name", { partitions: [{ qos: "normal" }] }, { partitions: ['Expected a list of objects, each with a "partition_name".'] }],
    ["partitions not a list", { partitions: { partition_name: "gpu" } }, { partitions: ['Expected a list of objects, each with a "partition_name".'] }],
    ["a blank name", { name: " " }, { name: ["This field may not be blank."] }],
    ["no type", { type: undefined }, { type: ["This field is required."] }],
  ];
  for (const [name, override, errors] of INVALID) {
    it(`${name} → 400, nothing created`, async () => {
      const before = await t.app.deps.db.offering.count();
      const body = { customer: t.world.provider.uuid, name: "Bad", type: "Marketplace.Basic", ...override };
      const res = await t.http("POST", `${BASE}/`, { token: as("providerOwner"), body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await t.app.deps.db.offering.count()).toBe(before);
    });
  }

  it("a customer that is not a service provider → 400", async () => {
    const res = await t.http("POST", `${BASE}/`, { token: as("staff"), body: { customer: t.world.consumer.uuid, name: "X", type: "Marketplace.Basic" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ customer: ["The customer is not a service provider."] });
  });

  for (const persona of ["providerManager", "providerSupport", "offeringManager", "support", "unrelated"] as const) {
    it(`${persona} may not create offerings for the provider → 403`, async () => {
      const res = await t.http("POST", `${BASE}/`, { token: as(persona), body: { customer: t.world.provider.uuid, name: `by ${persona}`, type: "Marketplace.Basic" } });
      expect(res.status).toBe(403);
      expect(await t.app.deps.db.offering.count({ where: { name: `by ${persona}` } })).toBe(0);
    });
  }
});

describe("retrieve and list", () => {
  it("a Draft offering is hidden from outsiders (404) and shown to the provider's people", async () => {
    const draft = await createOffering("Hidden draft");
    for (const persona of ["unrelated", "projectMember"] as const) {
      expect((await t.http("GET", `${BASE}/${draft.uuid}/`, { token: as(persona) })).status, persona).toBe(404);
    }
    for (const persona of ["providerOwner", "providerSupport", "staff", "support"] as const) {
      expect((await t.http("GET", `${BASE}/${draft.uuid}/`, { token: as(persona) })).status, persona).toBe(200);
    }
  });

  it("active offerings are visible to everyone", async () => {
    const res = await t.http("GET", `${BASE}/${t.world.offering.uuid}/`, { token: as("unrelated") });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "HPC", state: "Active", type: "Marketplace.Slurm" });
    expect(res.body.components.map((c: { type: string }) => c.type)).toEqual(["cpu", "ram"]);
  });

  it("filters: customer_uuid, type, state (labels, repeatable), name", async () => {
    await createOffering("Filter draft", { type: "Marketplace.Script" });
    const token = as("providerOwner");
    const get = async (query: string) => {
      const res = await t.http("GET", `${BASE}/?page_size=300&${query}`, { token });
      expect(res.status, query).toBe(200);
      return names(res.body);
    };
    expect(await get("type=Marketplace.Script")).toEqual(["Filter draft"]);
    expect(await get("state=Active")).toEqual(["HPC"]);
    expect(await get("state=Active&state=Draft")).toEqual(expect.arrayContaining(["HPC", "Filter draft"]));
    expect(await get("state=Draft")).not.toContain("HPC");
    expect(await get("name=filter DR")).toEqual(["Filter draft"]);
    expect(await get(`customer_uuid=${t.world.consumer.uuid}`)).toEqual([]);
    expect(await get(`customer_uuid=${t.world.provider.uuid}&name=HPC`)).toEqual(["HPC"]);
  });

  it("an unknown state label → 400", async () => {
    const res = await t.http("GET", `${BASE}/?state=Running`, { token: as("staff") });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ state: ["Select a valid choice. Running is not one of the available choices."] });
  });

  it("outsiders list only active offerings", async () => {
    await createOffering("Invisible draft");
    const res = await t.http("GET", `${BASE}/?page_size=300`, { token: as("unrelated") });
    expect(res.body.every((o: { state: string }) => o.state === "Active")).toBe(true);
    expect(names(res.body)).not.toContain("Invisible draft");
  });
});

describe("activate", () => {
  it("Draft → Active: 200 with Waldur's {detail, state}; again → 409 with the valid states", async () => {
    const draft = await createOffering("To activate");
    const res = await t.http("POST", `${BASE}/${draft.uuid}/activate/`, { token: as("providerManager") });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: "Offering state updated.", state: "Active" });
    expect((await t.http("GET", `${BASE}/${draft.uuid}/`, { token: as("unrelated") })).body.state).toBe("Active");

    const again = await t.http("POST", `${BASE}/${draft.uuid}/activate/`, { token: as("providerManager") });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: "Valid states for operation: Draft, Paused." });
  });

  it("Paused → Active", async () => {
    const paused = await createOffering("Paused one");
    await t.app.deps.db.offering.updateMany({ where: { name: "Paused one" }, data: { state: "PAUSED" } });
    const hidden = await t.http("POST", `${BASE}/${paused.uuid}/activate/`, { token: as("offeringManager") });
    expect(hidden.status).toBe(404);
    const byOwner = await t.http("POST", `${BASE}/${paused.uuid}/activate/`, { token: as("providerOwner") });
    expect(byOwner.status).toBe(200);
  });

  it("the offering's own manager may activate it", async () => {
    await t.app.deps.db.offering.update({ where: { id: t.world.offering.id }, data: { state: "PAUSED" } });
    const res = await t.http("POST", `${BASE}/${t.world.offering.uuid}/activate/`, { token: as("offeringManager") });
    expect(res.status).toBe(200);
    expect((await t.app.deps.db.offering.findUniqueOrThrow({ where: { id: t.world.offering.id } })).state).toBe("ACTIVE");
  });

  it("without UPDATE_OFFERING → 403 on a visible offering, 404 on a hidden draft; state unchanged", async () => {
    const draft = await createOffering("Guarded draft");
    expect((await t.http("POST", `${BASE}/${draft.uuid}/activate/`, { token: as("unrelated") })).status).toBe(404);
    expect((await t.http("POST", `${BASE}/${draft.uuid}/activate/`, { token: as("providerSupport") })).status).toBe(403);
    expect((await t.http("POST", `${BASE}/${draft.uuid}/activate/`, { token: as("support") })).status).toBe(403);
    expect((await t.http("GET", `${BASE}/${draft.uuid}/`, { token: as("staff") })).body.state).toBe("Draft");
  });

  it("an audit event records the activation", async () => {
    const draft = await createOffering("Audited");
    await t.http("POST", `${BASE}/${draft.uuid}/activate/`, { token: as("staff") });
    const events = await t.app.deps.db.event.findMany({ where: { eventType: "marketplace_offering_updated", message: { contains: "Audited" } } });
    expect(events).toHaveLength(1);
  });
});
