import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { toHex } from "../platform/ids.ts";

/** Every Waldur filter of the provider-resource list, on four resources built to be split by each. */

let t: TestApp;
const ids: Record<string, string> = {};
const uuids: Record<string, string> = {};
const BASE = "/api/marketplace-provider-resources";

async function offering(name: string, type: string, components: Array<[string, "USAGE" | "LIMIT" | "FIXED"]>, pluginOptions = {}) {
  const row = await t.app.deps.db.offering.create({
    data: {
      customerId: t.world.provider.id, name, type, state: "ACTIVE", pluginOptions,
      components: { create: components.map(([type, billingType]) => ({ type, name: type, billingType })) },
    },
  });
  return row;
}

async function resource(name: string, data: Omit<Prisma.ResourceUncheckedCreateInput, "name">) {
  const row = await t.app.deps.db.resource.create({ data: { name, ...data } });
  ids[name] = row.id;
  uuids[name] = toHex(row.id);
}

let offerings: Record<"hpc" | "limits" | "mixed" | "empty", { id: string; slug: string }>;
let secondProject: { id: string; customerId: string };
let planId: string;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const hpc = await db.offering.findUniqueOrThrow({ where: { id: t.world.offering.id } });
  offerings = {
    hpc,
    limits: await offering("Limits", "Marketplace.Basic", [["node", "LIMIT"]], { heappe_url: "https://heappe.example.org" }),
    mixed: await offering("Mixed", "Marketplace.Basic", [["cpu", "USAGE"], ["gb", "LIMIT"], ["fee", "FIXED"]]),
    empty: await offering("Empty", "Marketplace.Script", []),
  };
  const other = await db.customer.create({ data: { name: "Other Consumer" } });
  secondProject = await db.project.create({ data: { customerId: other.id, name: "Second" } });
  const plan = await db.offeringPlan.create({ data: { offeringId: hpc.id, name: "Gold" } });
  planId = plan.id;
  await resource("alpha", {
    offeringId: hpc.id, projectId: t.world.project.id, state: "OK", backendId: "b-1", planId: plan.id,
    backendMetadata: { runtime_state: "ACTIVE", flavor_name: "M1.Large", external_ips: ["10.0.0.7"], instance_name: "vm1" },
    attributes: { partition: "gpu", nodes: 2 }, endDate: new Date("2030-01-01"),
    created: new Date("2024-01-01T00:00:00Z"), modified: new Date("2024-01-02T00:00:00Z"),
  });
  await resource("beta", {
    offeringId: offerings.limits.id, projectId: secondProject.id, state: "ERRED", paused: true, backendId: "b-2",
    backendMetadata: { image_name: "Ubuntu-22", runtime_state: "SHUTOFF" }, attributes: { partition: "cpu" },
    created: new Date("2024-06-01T00:00:00Z"), modified: new Date("2024-06-02T00:00:00Z"),
  });
  await resource("gamma", {
    offeringId: offerings.mixed.id, projectId: t.world.project.id, state: "CREATING", downscaled: true, restrictMemberAccess: true,
    scopeId: ids.alpha, backendId: "b-3", created: new Date("2025-01-01T00:00:00Z"), modified: new Date("2025-01-02T00:00:00Z"),
  });
  await resource("delta", {
    offeringId: offerings.empty.id, projectId: secondProject.id, state: "TERMINATED", backendId: "b-4",
    backendMetadata: { hypervisor_hostname: "node-42" },
    created: new Date("2025-06-01T00:00:00Z"), modified: new Date("2025-06-02T00:00:00Z"),
  });
  const order = (resourceId: string, offeringId: string, projectId: string, state: "PENDING_CONSUMER" | "DONE") =>
    db.order.create({ data: { resourceId, offeringId, projectId, state } });
  await order(ids.gamma, offerings.mixed.id, t.world.project.id, "PENDING_CONSUMER");
  await order(ids.delta, offerings.empty.id, secondProject.id, "DONE");
});
afterAll(() => t.close());

const names = async (query: string) => {
  const res = await t.http("GET", `${BASE}/?${query}&field=name&page_size=100`, { token: t.world.tokens.staff });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.body as Array<{ name: string }>).map((r) => r.name).sort();
};
const ALL = ["alpha", "beta", "delta", "gamma"];
const url = (collection: string, id: string) => `${t.baseUrl}/api/${collection}/${toHex(id)}/`;
const enc = encodeURIComponent;

describe("each Waldur filter of marketplace-provider-resources", () => {
  const cases: Array<[string, () => string, string[]]> = [
    ["backend_id", () => "backend_id=b-1", ["alpha"]],
    ["category_uuid (no categories here)", () => `category_uuid=${uuids.alpha}`, []],
    ["component_count=2", () => "component_count=2", ["alpha"]],
    ["component_count=3", () => "component_count=3", ["gamma"]],
    ["component_count=0", () => "component_count=0", ["delta"]],
    ["component_count=1.5", () => "component_count=1.5", []],
    ["component_count beyond any count (1e308)", () => "component_count=1e%2B308", []],
    ["limit_component_count beyond any count (2^31)", () => "limit_component_count=2147483648", []],
    ["created", () => "created=2024-06-01", ["beta", "delta", "gamma"]],
    ["created_before", () => "created_before=2025-01-01T00:00:00Z", ["alpha", "beta"]],
    ["modified", () => "modified=2025-01-01", ["delta", "gamma"]],
    ["modified_before", () => "modified_before=2024-06-02", ["alpha"]],
    ["customer (URL)", () => `customer=${enc(url("customers", secondProject.customerId))}`, ["beta", "delta"]],
    ["customer_uuid", () => `customer_uuid=${t.world.consumer.uuid}`, ["alpha", "gamma"]],
    ["downscaled", () => "downscaled=true", ["gamma"]],
    ["flavor_name (icontains)", () => "flavor_name=large", ["alpha"]],
    ["has_terminate_date=true", () => "has_terminate_date=true", ["alpha"]],
    ["has_terminate_date=false", () => "has_terminate_date=false", ["beta", "delta", "gamma"]],
    ["image_name (icontains)", () => "image_name=ubuntu", ["beta"]],
    ["is_attached=true", () => "is_attached=true", ["alpha"]],
    ["is_attached=false", () => "is_attached=false", ["beta", "delta", "gamma"]],
    ["lexis_links_supported=true", () => "lexis_links_supported=true", ["beta"]],
    ["lexis_links_supported=false", () => "lexis_links_supported=false", ["alpha", "delta", "gamma"]],
    ["limit_based=true", () => "limit_based=true", ["beta", "gamma"]],
    ["limit_based=false", () => "limit_based=false", ["alpha", "delta"]],
    ["limit_component_count=1", () => "limit_component_count=1", ["beta", "gamma"]],
    ["limit_component_count=0", () => "limit_component_count=0", ["alpha", "delta"]],
    ["name (icontains)", () => "name=LP", ["alpha"]],
    ["name_exact", () => "name_exact=gamma", ["gamma"]],
    ["offering (URL)", () => `offering=${enc(url("marketplace-provider-offerings", offerings.limits.id))}`, ["beta"]],
    ["offering_billable=true", () => "offering_billable=true", ALL],
    ["offering_billable=false", () => "offering_billable=false", []],
    ["offering_shared=true", () => "offering_shared=true", ALL],
    ["offering_shared=false", () => "offering_shared=false", []],
    ["offering_slug (comma-separated)", () => `offering_slug=${offerings.limits.slug},${offerings.mixed.slug}`, ["beta", "gamma"]],
    ["offering_slug (repeated)", () => `offering_slug=${offerings.empty.slug}&offering_slug=${offerings.hpc.slug}`, ["alpha", "delta"]],
    ["offering_type", () => "offering_type=Marketplace.Basic", ["beta", "gamma"]],
    ["offering_uuid", () => `offering_uuid=${toHex(offerings.hpc.id)}`, ["alpha"]],
    ["only_limit_based=true", () => "only_limit_based=true", ["beta"]],
    ["only_limit_based=false", () => "only_limit_based=false", ["alpha", "delta", "gamma"]],
    ["only_usage_based=true", () => "only_usage_based=true", ["alpha"]],
    ["only_usage_based=false", () => "only_usage_based=false", ["beta", "delta", "gamma"]],
    ["order_state", () => "order_state=pending-consumer", ["gamma"]],
    ["order_state (several)", () => "order_state=done&order_state=pending-consumer", ["delta", "gamma"]],
    ["parent_offering_uuid (no parents here)", () => `parent_offering_uuid=${toHex(offerings.hpc.id)}`, []],
    ["paused", () => "paused=true", ["beta"]],
    ["plan_uuid", () => `plan_uuid=${toHex(planId)}`, ["alpha"]],
    ["project_name (exact)", () => "project_name=Second", ["beta", "delta"]],
    ["project_name is case-sensitive", () => "project_name=second", []],
    ["project_uuid", () => `project_uuid=${t.world.project.uuid}`, ["alpha", "gamma"]],
    ["provider_uuid", () => `provider_uuid=${t.world.provider.uuid}`, ALL],
    ["query: hypervisor", () => "query=NODE-42", ["delta"]],
    ["query: external ip", () => "query=10.0.0.7", ["alpha"]],
    ["query: backend id (iexact)", () => "query=B-2", ["beta"]],
    ["query: name", () => "query=amm", ["gamma"]],
    ["query: uuid", () => `query=${uuids.gamma}`, ["gamma"]],
    ["resource_attributes", () => `resource_attributes=${enc('{"partition":"gpu"}')}`, ["alpha"]],
    ["resource_attributes (list)", () => `resource_attributes=${enc('{"partition":["gpu","cpu"],"nodes":2}')}`, ["alpha"]],
    ["resource_attributes (any of)", () => `resource_attributes=${enc('{"partition":["gpu","cpu"]}')}`, ["alpha", "beta"]],
    ["restrict_member_access", () => "restrict_member_access=true", ["gamma"]],
    ["runtime_state", () => "runtime_state=ACTIVE", ["alpha"]],
    ["scope (URL)", () => `scope=${enc(url("marketplace-provider-resources", ids.alpha))}`, ["gamma"]],
    ["service_manager_uuid", () => `service_manager_uuid=${t.world.users.offeringManager.uuid}`, ["alpha"]],
    ["service_manager_uuid (no roles)", () => `service_manager_uuid=${t.world.users.projectMember.uuid}`, []],
    ["slug", () => "slug=beta", ["beta"]],
    ["state", () => "state=Erred&state=Terminated", ["beta", "delta"]],
    ["usage_based=true", () => "usage_based=true", ["alpha", "gamma"]],
    ["usage_based=false", () => "usage_based=false", ["beta", "delta"]],
    ["visible_to_providers=true", () => "visible_to_providers=true", ["alpha", "beta", "delta"]],
    ["visible_to_providers=false", () => "visible_to_providers=false", ALL],
    ["visible_to_username (consumer)", () => "visible_to_username=projectMember", ["alpha", "gamma"]],
    ["visible_to_username (staff)", () => "visible_to_username=staff", ALL],
    ["visible_to_username (unknown)", () => "visible_to_username=nobody", []],
  ];

  it.each(cases)("%s", async (_label, query, expected) => {
    expect(await names(query())).toEqual(expected);
  });

  it("answers bad values with Waldur's 400s", async () => {
    const get = (q: string) => t.http("GET", `${BASE}/?${q}`, { token: t.world.tokens.staff });
    expect((await get("order_state=started")).body).toEqual({ order_state: ["Select a valid choice. started is not one of the available choices."] });
    expect((await get("plan_uuid=nope")).body).toEqual({ plan_uuid: ["Enter a valid UUID."] });
    expect((await get("component_count=many")).body).toEqual({ component_count: ["Enter a number."] });
    expect((await get("resource_attributes=%7Bnope")).body).toEqual({ resource_attributes: ["Filter attribute is not valid json."] });
    expect((await get("resource_attributes=%5B1%5D")).body).toEqual({ resource_attributes: ["Filter attribute should be an dict."] });
    // A lone surrogate (half of an emoji) cannot reach PostgreSQL's JSON: a 400, not a 500.
    for (const json of ['{"a\\ud83d":1}', '{"a":"\\ud83d"}', '{"a":["\\udc00"]}']) {
      expect((await get(`resource_attributes=${enc(json)}`)).body, json).toEqual({ resource_attributes: ["Filter attribute is not valid json."] });
    }
    expect((await get("scope=https%3A%2F%2Fx%2Fapi%2Fprojects%2F123%2F")).status).toBe(400);
  });
});

describe("orderings", () => {
  const order = async (o: string) => {
    const res = await t.http("GET", `${BASE}/?o=${o}&field=name&page_size=100`, { token: t.world.tokens.staff });
    expect(res.status, res.text).toBe(200);
    return (res.body as Array<{ name: string }>).map((r) => r.name);
  };

  it.each([
    ["name", ["alpha", "beta", "delta", "gamma"]],
    ["-name", ["gamma", "delta", "beta", "alpha"]],
    ["created", ["alpha", "beta", "gamma", "delta"]],
    ["backend_id", ["alpha", "beta", "gamma", "delta"]],
    ["-backend_id", ["delta", "gamma", "beta", "alpha"]],
    ["state", ["gamma", "alpha", "beta", "delta"]],
    ["offering_name,name", ["delta", "alpha", "beta", "gamma"]],
    ["customer_name,name", ["alpha", "gamma", "beta", "delta"]],
    ["project_name,-name", ["gamma", "alpha", "delta", "beta"]],
    ["plan_name,name", ["alpha", "beta", "delta", "gamma"]],
    ["-plan_name,name", ["beta", "delta", "gamma", "alpha"]],
    ["end_date,name", ["alpha", "beta", "delta", "gamma"]],
    ["-end_date,name", ["beta", "delta", "gamma", "alpha"]],
  ])("o=%s", async (o, expected) => {
    expect(await order(o)).toEqual(expected);
  });

  it("without o=, newest first", async () => {
    expect(await order("")).toEqual(["delta", "gamma", "beta", "alpha"]);
  });
});

describe("GraphQL speaks the same contract", () => {
  it("filters and orders by argument names", async () => {
    const query = `query($f: ResourceFilter, $o: [ResourceOrder!]) { resources(view: PROVIDER, filter: $f, orderBy: $o) { nodes { name } } }`;
    const result = await t.gql<any>(
      query,
      { f: { offeringSlug: [offerings.limits.slug, offerings.mixed.slug], limitComponentCount: 1, orderState: null }, o: ["NAME_DESC"] },
      t.world.tokens.staff,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.resources.nodes.map((n: { name: string }) => n.name)).toEqual(["gamma", "beta"]);
    const byState = await t.gql<any>(query, { f: { orderState: ["DONE"], visibleToProviders: true } }, t.world.tokens.staff);
    expect(byState.data.resources.nodes).toEqual([{ name: "delta" }]);
    const bad = await t.gql<any>(query, { f: { planUuid: ["nope"] } }, t.world.tokens.staff);
    expect(bad.errors?.[0].extensions?.fields).toEqual({ planUuid: ["“nope” is not a valid UUID."] });
    const attributes = await t.gql<any>(query, { f: { resourceAttributes: "{nope" } }, t.world.tokens.staff);
    expect(attributes.errors?.[0].extensions?.fields).toEqual({ resourceAttributes: ["Filter attribute is not valid json."] });
  });
});
