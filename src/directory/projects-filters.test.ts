import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newTokenKey, tokenDigest } from "../auth/secrets.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { toHex } from "../platform/ids.ts";

const BASE = "/api/projects/";
type Name = "Genome Study" | "Climate Model" | "genome Pilot" | "Project";

let t: TestApp;
let staff: string;
/** A user who administers Genome Study, manages Climate Model and owns the customer of genome Pilot. */
const member = { uuid: "", token: "" };
const ref = { alpha: "", beta: "", pilot: "" };

beforeAll(async () => {
  t = await startTestApp();
  staff = t.world.tokens.staff;
  const db = t.app.deps.db;
  const alpha = await db.customer.create({ data: { name: "Alpha Research", abbreviation: "AR" } });
  const beta = await db.customer.create({ data: { name: "Beta Labs", abbreviation: "BL" } });
  const project = (customerId: string, name: string, description: string, endDate: string | null, created: string, modified: string) =>
    db.project.create({
      data: { customerId, name, description, endDate: endDate && new Date(endDate), created: new Date(created), modified: new Date(modified) },
    });
  const study = await project(alpha.id, "Genome Study", "DNA sequencing", "2020-01-01", "2024-01-01T00:00:00Z", "2024-01-10T00:00:00Z");
  const climate = await project(alpha.id, "Climate Model", "Weather", "2999-01-01", "2024-02-01T00:00:00Z", "2024-02-10T00:00:00Z");
  const pilot = await project(beta.id, "genome Pilot", "", null, "2024-03-01T00:00:00Z", "2024-03-10T00:00:00Z");
  await db.resource.create({ data: { projectId: climate.id, offeringId: t.world.offering.id, name: "cluster-run", backendId: "BK-77", state: "OK" } });
  await db.resource.create({ data: { projectId: pilot.id, offeringId: t.world.offering.id, name: "old-run", state: "TERMINATED" } });

  const user = await db.user.create({ data: { username: "filter.member", firstName: "Filter", lastName: "Member" } });
  member.uuid = toHex(user.id);
  member.token = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(member.token), userId: user.id } });
  await db.roleGrant.createMany({
    data: [
      { userId: user.id, role: "PROJECT.ADMIN", scopeType: "PROJECT", scopeId: study.id },
      { userId: user.id, role: "PROJECT.MANAGER", scopeType: "PROJECT", scopeId: climate.id },
      { userId: user.id, role: "CUSTOMER.OWNER", scopeType: "CUSTOMER", scopeId: beta.id },
    ],
  });
  Object.assign(ref, { alpha: toHex(alpha.id), beta: toHex(beta.id), pilot: toHex(pilot.id) });
});
afterAll(() => t.close());

async function list(query: string, token = staff): Promise<Name[]> {
  const res = await t.http("GET", `${BASE}?${query}`, { token });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return res.body.map((p: { name: Name }) => p.name);
}

const ALL: Name[] = ["Climate Model", "Genome Study", "Project", "genome Pilot"];

describe("every Waldur filter of /api/projects/ (staff's list, by name)", () => {
  const cases: Array<[string, () => string, Name[]]> = [
    ["no filter", () => "", ALL],
    ["customer (URL)", () => `customer=${t.baseUrl}/api/customers/${ref.alpha}/`, ["Climate Model", "Genome Study"]],
    ["customer (uuid)", () => `customer=${ref.beta}`, ["genome Pilot"]],
    ["customer_uuid", () => `customer_uuid=${ref.beta}`, ["genome Pilot"]],
    ["customer and customer_uuid narrow together", () => `customer=${ref.alpha}&customer_uuid=${ref.beta}`, []],
    ["name: case-insensitive substring", () => "name=GENOME", ["Genome Study", "genome Pilot"]],
    ["name_exact", () => "name_exact=Genome%20Study", ["Genome Study"]],
    ["name_exact is case-sensitive", () => "name_exact=genome%20study", []],
    ["slug", () => "slug=genome-study", ["Genome Study"]],
    ["description", () => "description=dna", ["Genome Study"]],
    ["customer_name", () => "customer_name=beta", ["genome Pilot"]],
    ["customer_abbreviation", () => "customer_abbreviation=ar", ["Climate Model", "Genome Study"]],
    ["customer_native_name: customers have none", () => "customer_native_name=x", []],
    ["backend_id: projects have none", () => "backend_id=x", []],
    ["created (at or after)", () => "created=2024-02-01", ["Climate Model", "Project", "genome Pilot"]],
    ["created_before", () => "created_before=2024-02-01", ["Genome Study"]],
    ["modified (at or after)", () => "modified=2024-03-01", ["Project", "genome Pilot"]],
    ["modified_before", () => "modified_before=2024-02-10T00:00:01Z", ["Climate Model", "Genome Study"]],
    ["query: name substring", () => "query=genome", ["Genome Study", "genome Pilot"]],
    ["query: slug substring", () => "query=genome-stu", ["Genome Study"]],
    ["query: a resource's exact name", () => "query=cluster-run", ["Climate Model"]],
    ["query: a resource's backend id, any case", () => "query=bk-77", ["Climate Model"]],
    ["query: the project's uuid", () => `query=${ref.pilot}`, ["genome Pilot"]],
    ["user_uuid: the projects that user could list", () => `user_uuid=${member.uuid}`, ["Climate Model", "Genome Study", "genome Pilot"]],
    ["user_uuid of staff: all", () => `user_uuid=${t.world.users.staff.uuid}`, ALL],
    ["user_uuid of nobody", () => `user_uuid=${randomUUID()}`, []],
    ["user_uuid_with_active_role: project roles only", () => `user_uuid_with_active_role=${member.uuid}`, ["Climate Model", "Genome Study"]],
    ["conceal_finished_projects=true hides a past end date", () => "conceal_finished_projects=true", ["Climate Model", "Project", "genome Pilot"]],
    ["conceal_finished_projects=false", () => "conceal_finished_projects=false", ALL],
    ["accounting_is_running=true", () => "accounting_is_running=true", ALL],
    ["accounting_is_running=false", () => "accounting_is_running=false", []],
    ["include_terminated: nothing is terminated", () => "include_terminated=true", ALL],
    ["is_removed=true", () => "is_removed=true", []],
    ["is_removed=false", () => "is_removed=false", ALL],
    ["has_affiliation=true", () => "has_affiliation=true", []],
    ["has_affiliation=false", () => "has_affiliation=false", ALL],
    ["affiliation_name", () => "affiliation_name=x", []],
    ["affiliation_uuid", () => `affiliation_uuid=${randomUUID()}`, []],
    ["science_domain_uuid", () => `science_domain_uuid=${randomUUID()}`, []],
    ["science_sub_domain_uuid", () => `science_sub_domain_uuid=${randomUUID()}`, []],
  ];
  for (const [name, query, expected] of cases) it(name, async () => expect(await list(query())).toEqual(expected));

  it("can_manage: projects the viewer manages or whose customer they own, for either value", async () => {
    expect(await list("can_manage=true", member.token)).toEqual(["Climate Model", "genome Pilot"]);
    expect(await list("can_manage=false", member.token)).toEqual(["Climate Model", "genome Pilot"]);
    expect(await list("", member.token)).toEqual(["Climate Model", "Genome Study", "genome Pilot"]);
  });

  it("can_admin: projects the viewer administers", async () => {
    expect(await list("can_admin=true", member.token)).toEqual(["Genome Study"]);
  });

  it("current_user_has_role: project roles of the viewer, comma-separated or repeated", async () => {
    expect(await list("current_user_has_role=PROJECT.ADMIN,PROJECT.MANAGER", member.token)).toEqual(["Climate Model", "Genome Study"]);
    expect(await list("current_user_has_role=PROJECT.MANAGER&current_user_has_role=PROJECT.ADMIN", member.token)).toEqual([
      "Climate Model",
      "Genome Study",
    ]);
    expect(await list("current_user_has_role=PROJECT.MEMBER", member.token)).toEqual([]);
  });

  it("malformed values → 400 naming the parameter", async () => {
    for (const [query, field] of [["customer=not-a-link", "customer"], ["user_uuid=zzz", "user_uuid"], ["is_removed=maybe", "is_removed"]]) {
      const res = await t.http("GET", `${BASE}?${query}`, { token: staff });
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body), query).toEqual([field]);
    }
  });

  it("over GraphQL too, with GraphQL's argument names", async () => {
    const res = await t.gql(
      `query($filter: ProjectFilter, $orderBy: [ProjectOrder!]) { projects(filter: $filter, orderBy: $orderBy) { nodes { name } } }`,
      { filter: { customerUuid: [ref.alpha, ref.beta], name: "genome" }, orderBy: ["NAME_DESC"] },
      staff,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.projects.nodes.map((p: { name: string }) => p.name)).toEqual(["genome Pilot", "Genome Study"]);
  });
});

describe("every Waldur ordering of /api/projects/", () => {
  const cases: Array<[string, Name[]]> = [
    ["", ALL],
    ["-name", [...ALL].reverse()],
    ["created", ["Genome Study", "Climate Model", "genome Pilot", "Project"]],
    ["-created", ["Project", "genome Pilot", "Climate Model", "Genome Study"]],
    ["customer_name,name", ["Climate Model", "Genome Study", "genome Pilot", "Project"]],
    ["-customer_name,name", ["Project", "genome Pilot", "Climate Model", "Genome Study"]],
    ["customer_abbreviation,name", ["Project", "Climate Model", "Genome Study", "genome Pilot"]],
    ["end_date,name", ["Genome Study", "Climate Model", "Project", "genome Pilot"]],
    ["-end_date,name", ["Project", "genome Pilot", "Climate Model", "Genome Study"]],
    // No start dates, native names or cost estimates here: every project ties, so the next key decides.
    ["start_date,-name", [...ALL].reverse()],
    ["customer_native_name,-name", [...ALL].reverse()],
    ["-estimated_cost,-name", [...ALL].reverse()],
  ];
  for (const [o, expected] of cases) it(`o=${o}`, async () => expect(await list(`o=${o}`)).toEqual(expected));

  it("an unknown key → 400", async () => {
    const res = await t.http("GET", `${BASE}?o=budget`, { token: staff });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ o: ["Select a valid choice. budget is not one of the available choices."] });
  });
});

describe("responses parse with py-client's Project", () => {
  it("list, retrieve and create return every derivable field", async () => {
    const listed = await t.http("GET", `${BASE}?name_exact=Climate%20Model`, { token: staff });
    expect(responseProblems(waldurOperation("GET", "/api/projects/")!, listed.body)).toEqual([]);
    expect(listed.body[0]).toMatchObject({
      slug: "climate-model",
      end_date: "2999-01-01",
      start_date: null,
      resources_count: 1,
      customer_abbreviation: "AR",
      customer_slug: "alpha-research",
      customer_native_name: "",
      backend_id: "",
      is_removed: false,
    });
    const retrieved = await t.http("GET", `${BASE}${ref.pilot}/`, { token: member.token });
    expect(responseProblems(waldurOperation("GET", "/api/projects/:uuid/")!, retrieved.body)).toEqual([]);
    expect(retrieved.body).toMatchObject({ end_date: null, resources_count: 0, customer_name: "Beta Labs" });
    const created = await t.http("POST", BASE, { token: staff, body: { customer: ref.beta, name: "Fresh Start" } });
    expect(created.status).toBe(201);
    expect(responseProblems(waldurOperation("POST", "/api/projects/")!, created.body)).toEqual([]);
    expect(created.body.slug).toBe("fresh-start");
  });
});
