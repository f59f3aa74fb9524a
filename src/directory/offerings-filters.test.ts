import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newTokenKey, tokenDigest } from "../auth/secrets.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { toHex } from "../platform/ids.ts";

const BASE = "/api/marketplace-provider-offerings/";
type Name = "Alpha Storage" | "Beta Compute" | "HPC" | "gamma archive";

let t: TestApp;
let staff: string;
/** Provider support at the world's provider, manager of gamma archive, with consents and an offering user. */
const viewer = { uuid: "", token: "" };
const ref = { second: "", other: "", alpha: "", beta: "", gamma: "" };

/**
 * Alpha Storage: the world's provider, Draft, accepts access subnets, restricted to project admins, inactive terms,
 * consumed by the world's consumer. Beta Compute: a second provider, Active, active terms, one order, a terminated
 * resource. gamma archive: the second provider, Archived. HPC (the world's): Active, used by two customers.
 */
beforeAll(async () => {
  t = await startTestApp();
  staff = t.world.tokens.staff;
  const db = t.app.deps.db;
  const second = await db.customer.create({ data: { name: "Second Host", abbreviation: "SH" } });
  const other = await db.customer.create({ data: { name: "Other Consumer" } });
  const otherProject = await db.project.create({ data: { customerId: other.id, name: "Other project" } });
  const offering = (data: { customerId: string; name: string; type: string; state: "DRAFT" | "ACTIVE" | "ARCHIVED"; created: string; modified: string; description?: string; pluginOptions?: object }) =>
    db.offering.create({ data: { ...data, created: new Date(data.created), modified: new Date(data.modified) } });
  const alpha = await offering({
    customerId: t.world.provider.id, name: "Alpha Storage", type: "Marketplace.Basic", state: "DRAFT", description: "Object storage",
    created: "2024-01-01T00:00:00Z", modified: "2024-01-10T00:00:00Z",
    pluginOptions: { enable_resource_access_subnets: true, restricted_to_roles: ["PROJECT.ADMIN"] },
  });
  const beta = await offering({
    customerId: second.id, name: "Beta Compute", type: "Marketplace.Script", state: "ACTIVE", description: "GPU nodes",
    created: "2024-02-01T00:00:00Z", modified: "2024-02-10T00:00:00Z",
    pluginOptions: { service_provider_can_create_offering_user: false, restricted_to_roles: ["OFFERING.MANAGER", "PROJECT.ADMIN"] },
  });
  const gamma = await offering({
    customerId: second.id, name: "gamma archive", type: "Marketplace.Basic", state: "ARCHIVED", created: "2024-03-01T00:00:00Z", modified: "2024-03-10T00:00:00Z",
  });
  await db.offeringTermsOfService.createMany({ data: [{ offeringId: alpha.id, version: "1" }, { offeringId: beta.id, version: "1", isActive: true }] });
  const project = t.world.project.id;
  await db.resource.createMany({
    data: [
      { projectId: project, offeringId: alpha.id, state: "OK" },
      { projectId: project, offeringId: beta.id, state: "TERMINATED" },
      { projectId: project, offeringId: t.world.offering.id, state: "UPDATING" },
      { projectId: otherProject.id, offeringId: t.world.offering.id, state: "OK" },
      { projectId: otherProject.id, offeringId: t.world.offering.id, state: "ERRED" },
    ],
  });
  await db.order.create({ data: { offeringId: beta.id, projectId: project } });

  const user = await db.user.create({ data: { username: "offering.viewer", firstName: "Offering", lastName: "Viewer" } });
  viewer.uuid = toHex(user.id);
  viewer.token = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(viewer.token), userId: user.id } });
  await db.roleGrant.createMany({
    data: [
      { userId: user.id, role: "CUSTOMER.SUPPORT", scopeType: "CUSTOMER", scopeId: t.world.provider.id },
      { userId: user.id, role: "OFFERING.MANAGER", scopeType: "OFFERING", scopeId: gamma.id },
    ],
  });
  await db.userOfferingConsent.createMany({
    data: [
      { userId: user.id, offeringId: beta.id },
      { userId: user.id, offeringId: alpha.id, revocationDate: new Date("2024-06-01T00:00:00Z") },
    ],
  });
  await db.offeringUser.create({ data: { offeringId: t.world.offering.id, userId: user.id } });
  Object.assign(ref, { second: toHex(second.id), other: toHex(other.id), alpha: toHex(alpha.id), beta: toHex(beta.id), gamma: toHex(gamma.id) });
});
afterAll(() => t.close());

async function list(query: string, token = staff): Promise<Name[]> {
  const res = await t.http("GET", `${BASE}?${query}`, { token });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return res.body.map((o: { name: Name }) => o.name);
}

const ALL: Name[] = ["Alpha Storage", "Beta Compute", "HPC", "gamma archive"];
const without = (...names: Name[]) => ALL.filter((name) => !names.includes(name));

describe("every Waldur filter of /api/marketplace-provider-offerings/ (staff's list, by name)", () => {
  const cases: Array<[string, () => string, Name[]]> = [
    ["no filter", () => "", ALL],
    ["customer (URL)", () => `customer=${t.baseUrl}/api/customers/${t.world.provider.uuid}/`, ["Alpha Storage", "HPC"]],
    ["customer_uuid", () => `customer_uuid=${ref.second}`, ["Beta Compute", "gamma archive"]],
    ["customer and customer_uuid narrow together", () => `customer=${t.world.provider.uuid}&customer_uuid=${ref.second}`, []],
    ["uuid_list", () => `uuid_list=${ref.alpha},${ref.gamma}`, ["Alpha Storage", "gamma archive"]],
    ["type", () => "type=Marketplace.Basic", ["Alpha Storage", "gamma archive"]],
    ["type repeated", () => "type=Marketplace.Basic&type=Marketplace.Slurm", ["Alpha Storage", "HPC", "gamma archive"]],
    ["state", () => "state=Draft", ["Alpha Storage"]],
    ["state repeated", () => "state=Archived&state=Active", ["Beta Compute", "HPC", "gamma archive"]],
    ["state=Unavailable: no offering is", () => "state=Unavailable", []],
    ["name", () => "name=COMPUTE", ["Beta Compute"]],
    ["name_exact", () => "name_exact=HPC", ["HPC"]],
    ["name_exact is case-sensitive", () => "name_exact=hpc", []],
    ["slug", () => "slug=gamma-archive", ["gamma archive"]],
    ["description", () => "description=gpu", ["Beta Compute"]],
    ["keyword: the customer's name", () => "keyword=second", ["Beta Compute", "gamma archive"]],
    ["keyword: the customer's abbreviation", () => "keyword=sh", ["Beta Compute", "gamma archive"]],
    ["keyword: the description", () => "keyword=object", ["Alpha Storage"]],
    ["query: name or description", () => "query=storage", ["Alpha Storage"]],
    ["query: slug", () => "query=gamma-arc", ["gamma archive"]],
    ["query: uuid", () => `query=${ref.beta}`, ["Beta Compute"]],
    ["created (at or after)", () => "created=2024-02-01", ["Beta Compute", "HPC", "gamma archive"]],
    ["created_before", () => "created_before=2024-02-01", ["Alpha Storage"]],
    ["modified (at or after)", () => "modified=2024-03-01", ["HPC", "gamma archive"]],
    ["modified_before", () => "modified_before=2024-02-10T00:00:01Z", ["Alpha Storage", "Beta Compute"]],
    ["has_terms_of_service=true", () => "has_terms_of_service=true", ["Alpha Storage", "Beta Compute"]],
    ["has_terms_of_service=false", () => "has_terms_of_service=false", ["HPC", "gamma archive"]],
    ["has_active_terms_of_service=true", () => "has_active_terms_of_service=true", ["Beta Compute"]],
    ["has_active_terms_of_service=false", () => "has_active_terms_of_service=false", without("Beta Compute")],
    ["can_create_offering_user=true", () => "can_create_offering_user=true", ["HPC"]],
    ["can_create_offering_user=false", () => "can_create_offering_user=false", ["Beta Compute"]],
    ["consumer_customer_uuid: consumed, accepting access subnets", () => `consumer_customer_uuid=${t.world.consumer.uuid}`, ["Alpha Storage"]],
    ["consumer_customer_uuid: a provider is no consumer", () => `consumer_customer_uuid=${t.world.provider.uuid}`, []],
    ["resource_customer_uuid: resources not terminated", () => `resource_customer_uuid=${t.world.consumer.uuid}`, ["Alpha Storage", "HPC"]],
    ["resource_customer_uuid (another customer)", () => `resource_customer_uuid=${ref.other}`, ["HPC"]],
    ["resource_project_uuid", () => `resource_project_uuid=${t.world.project.uuid}`, ["Alpha Storage", "HPC"]],
    ["allowed_customer_uuid: every offering is shared", () => `allowed_customer_uuid=${t.world.consumer.uuid}`, ALL],
    ["allowed_customer_uuid of no customer", () => `allowed_customer_uuid=${randomUUID()}`, []],
    ["service_manager_uuid", () => `service_manager_uuid=${viewer.uuid}`, ["gamma archive"]],
    ["service_manager_uuid of nobody", () => `service_manager_uuid=${randomUUID()}`, []],
    ["project_uuid: every offering is shared", () => `project_uuid=${t.world.project.uuid}`, ALL],
    ["project_uuid of no project", () => `project_uuid=${randomUUID()}`, []],
    ["shared=true", () => "shared=true", ALL],
    ["shared=false", () => "shared=false", []],
    ["billable=true", () => "billable=true", ALL],
    ["billable=false", () => "billable=false", []],
    ["accessible_via_calls=true", () => "accessible_via_calls=true", []],
    ["accessible_via_calls=false", () => "accessible_via_calls=false", ALL],
    ["open_for_proposals=true", () => "open_for_proposals=true", []],
    ["open_for_proposals=false", () => "open_for_proposals=false", ALL],
    ["importable", () => "importable=true", []],
    ["attributes={}", () => "attributes=%7B%7D", ALL],
    ["attributes with a value", () => `attributes=${encodeURIComponent('{"cpu":"x86"}')}`, []],
    ["tags_and", () => `tags_and=${randomUUID()}`, []],
    ["tags_and with no tag", () => "tags_and=,", ALL],
    ["tag_names_and", () => "tag_names_and=gpu", []],
    ["tag_name", () => "tag_name=gpu", []],
    ["tag", () => `tag=${randomUUID()}`, []],
    ["category_uuid", () => `category_uuid=${randomUUID()}`, []],
    ["category_group_uuid", () => `category_group_uuid=${randomUUID()}`, []],
    ["offering_group_uuid", () => `offering_group_uuid=${randomUUID()}`, []],
    ["organization_group_uuid", () => `organization_group_uuid=${randomUUID()}`, []],
    ["parent_uuid", () => `parent_uuid=${randomUUID()}`, []],
    ["scope_uuid", () => `scope_uuid=${randomUUID()}`, []],
  ];
  for (const [name, query, expected] of cases) it(name, async () => expect(await list(query())).toEqual(expected));

  it("user_has_consent, user_has_offering_user and accessible answer for the viewer", async () => {
    expect(await list("", viewer.token)).toEqual(ALL);
    expect(await list("user_has_consent=true", viewer.token)).toEqual(["Beta Compute"]);
    expect(await list("user_has_consent=false", viewer.token)).toEqual(without("Beta Compute"));
    expect(await list("user_has_offering_user=true", viewer.token)).toEqual(["HPC"]);
    expect(await list("user_has_offering_user=false", viewer.token)).toEqual(without("HPC"));
    expect(await list("accessible=true", viewer.token)).toEqual(without("Alpha Storage"));
    expect(await list("accessible=false", viewer.token)).toEqual(ALL);
    expect(await list("user_has_consent=true")).toEqual([]);
  });

  it("malformed values → 400 naming the parameter", async () => {
    const bad: Array<[string, Record<string, string[]>]> = [
      ["attributes=nope", { attributes: ["Filter attribute is not valid json."] }],
      ["attributes=%5B1%5D", { attributes: ["Filter attribute should be an dict."] }],
      ["state=Running", { state: ["Select a valid choice. Running is not one of the available choices."] }],
      ["uuid_list=a,b", { uuid_list: ["“a” is not a valid UUID.", "“b” is not a valid UUID."] }],
      ["customer=https://x/api/users/1/", { customer: ["Select a valid choice. That choice is not one of the available choices."] }],
    ];
    for (const [query, errors] of bad) {
      const res = await t.http("GET", `${BASE}?${query}`, { token: staff });
      expect(res.status, query).toBe(400);
      expect(res.body, query).toEqual(errors);
    }
  });

  it("over GraphQL too", async () => {
    const res = await t.gql(
      `query($filter: OfferingFilter, $orderBy: [OfferingOrder!]) { offerings(filter: $filter, orderBy: $orderBy) { nodes { name } } }`,
      { filter: { customerUuid: [ref.second], state: ["ACTIVE", "ARCHIVED", "UNAVAILABLE"] }, orderBy: ["TOTAL_CUSTOMERS_DESC", "NAME_DESC"] },
      staff,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.offerings.nodes.map((o: { name: string }) => o.name)).toEqual(["gamma archive", "Beta Compute"]);
  });
});

describe("every Waldur ordering of /api/marketplace-provider-offerings/", () => {
  const cases: Array<[string, Name[]]> = [
    ["", ALL],
    ["-name", [...ALL].reverse()],
    ["created", ["Alpha Storage", "Beta Compute", "gamma archive", "HPC"]],
    ["-created", ["HPC", "gamma archive", "Beta Compute", "Alpha Storage"]],
    ["type,name", ["Alpha Storage", "gamma archive", "Beta Compute", "HPC"]],
    ["-type,name", ["HPC", "Beta Compute", "Alpha Storage", "gamma archive"]],
    ["state,name", ["Alpha Storage", "Beta Compute", "HPC", "gamma archive"]],
    ["-state,name", ["gamma archive", "Beta Compute", "HPC", "Alpha Storage"]],
    // HPC has two customers (OK and updating resources), Alpha Storage one, the others none.
    ["-total_customers,name", ["HPC", "Alpha Storage", "Beta Compute", "gamma archive"]],
    ["total_customers,-name", ["gamma archive", "Beta Compute", "Alpha Storage", "HPC"]],
    ["type,total_customers", ["gamma archive", "Alpha Storage", "Beta Compute", "HPC"]],
    ["-type,-total_customers", ["HPC", "Beta Compute", "Alpha Storage", "gamma archive"]],
    // No invoices here: every offering costs 0, so the next key decides.
    ["total_cost,-name", [...ALL].reverse()],
    ["-total_cost_estimated,name", ALL],
  ];
  for (const [o, expected] of cases) it(`o=${o}`, async () => expect(await list(`o=${o}`)).toEqual(expected));

  it("pages of a list ordered by total_customers", async () => {
    const res = await t.http("GET", `${BASE}?o=-total_customers,name&page_size=2&page=2`, { token: staff });
    expect(res.headers.get("x-result-count")).toBe("4");
    expect(res.body.map((o: { name: string }) => o.name)).toEqual(["Beta Compute", "gamma archive"]);
  });

  it("an unknown key → 400", async () => {
    const res = await t.http("GET", `${BASE}?o=rating`, { token: staff });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ o: ["Select a valid choice. rating is not one of the available choices."] });
  });
});

describe("the offering's account lists filter the offering itself", () => {
  for (const action of ["list_project_service_accounts", "list_course_accounts"]) {
    it(`${action}: an offering the filters leave out is a 404; unknown o → 400`, async () => {
      const path = `${BASE}${t.world.offering.uuid}/${action}/`;
      const ok = await t.http("GET", `${path}?state=Active&o=-total_customers`, { token: staff });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual([]);
      expect((await t.http("GET", `${path}?state=Draft`, { token: staff })).status).toBe(404);
      expect((await t.http("GET", `${path}?o=rating`, { token: staff })).status).toBe(400);
    });
  }
});

describe("responses parse with py-client's models", () => {
  it("list, retrieve, create and activate", async () => {
    const listed = await t.http("GET", BASE, { token: staff });
    expect(responseProblems(waldurOperation("GET", BASE)!, listed.body)).toEqual([]);
    const hpc = listed.body.find((o: { name: string }) => o.name === "HPC");
    expect(hpc).toMatchObject({ slug: "hpc", shared: true, billable: true, total_customers: 2, order_count: 0, total_cost: 0 });
    expect(listed.body.find((o: { name: string }) => o.name === "Beta Compute")).toMatchObject({ order_count: 1, total_customers: 0 });

    const retrieved = await t.http("GET", `${BASE}${ref.alpha}/`, { token: staff });
    expect(responseProblems(waldurOperation("GET", `${BASE}:uuid/`)!, retrieved.body)).toEqual([]);
    expect(retrieved.body).toMatchObject({ slug: "alpha-storage", total_customers: 1, attributes: {} });

    const created = await t.http("POST", BASE, {
      token: staff,
      body: {
        customer: t.world.provider.uuid, name: "Parsed Offering", type: "Marketplace.Basic", partitions: [{ partition_name: "gpu", max_time: 60 }],
        components: [{ type: "gpu", name: "GPU", billing_type: "limit", limit_period: "quarterly", limit_amount: 4 }],
        plans: [{ name: "Default", unit_price: "1.5", unit: "hour" }],
      },
    });
    expect(created.status).toBe(201);
    expect(responseProblems(waldurOperation("POST", BASE)!, created.body)).toEqual([]);

    const activated = await t.http("POST", `${BASE}${created.body.uuid}/activate/`, { token: staff });
    expect(activated.status).toBe(200);
    expect(responseProblems(waldurOperation("POST", `${BASE}:uuid/activate/`)!, activated.body)).toEqual([]);
    expect(activated.body).toEqual({ detail: "Offering state updated.", state: "Active" });
  });
});
