import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { parseUuid, toHex } from "../platform/ids.ts";

/** Users, customers, projects and service providers parse with Waldur's py-client models, every field we derive present. */
let t: TestApp;
let staff: string;
const made = {} as Record<"user" | "customer" | "provider", { uuid: string }>;

beforeAll(async () => {
  t = await startTestApp();
  staff = t.world.tokens.staff;
  const post = async (path: string, body: object) => {
    const res = await t.http("POST", path, { token: staff, body });
    expect(res.status, res.text).toBe(201);
    return res;
  };
  made.user = (await post("/api/users/", { username: "py.client", email: "py@example.org", first_name: "Py", last_name: "Client", password: "pw-123456" })).body;
  made.customer = (await post("/api/customers/", { name: "Py Client Org", abbreviation: "PCO", email: "org@example.org" })).body;
  made.provider = (await post("/api/marketplace-service-providers/", { customer: made.customer.uuid, description: "Parsed" })).body;
  await t.app.deps.db.project.create({ data: { customerId: t.world.provider.id, name: "Provider project" } });
});
afterAll(() => t.close());

/** The response of `method path` as py-client's model of the served route `served` reads it. */
async function problems(method: string, served: string, path: string, body?: object) {
  const operation = waldurOperation(method, served);
  expect(operation, `${method} ${served}`).toBeDefined();
  const res = await t.http(method, path, { token: staff, body });
  expect(res.status, res.text).toBe(method === "POST" ? 201 : 200);
  return { problems: responseProblems(operation!, res.body), body: res.body };
}

const USER_FIELDS = [
  "url", "uuid", "username", "email", "first_name", "last_name", "full_name", "is_staff", "is_support", "is_active", "date_joined",
  "has_usable_password", "registration_method", "native_name", "job_title", "phone_number", "organization", "description",
  "civil_number", "agreement_date",
];
const CUSTOMER_FIELDS = [
  "url", "uuid", "name", "slug", "abbreviation", "email", "created", "display_name", "accounting_start_date", "projects_count",
  "users_count", "is_service_provider", "service_provider", "service_provider_uuid", "native_name", "contact_details",
  "agreement_number", "registration_code", "backend_id", "archived", "organization_groups",
];
const PROJECT_FIELDS = [
  "url", "uuid", "name", "slug", "description", "created", "end_date", "end_date_updated_at", "start_date", "backend_id", "is_removed",
  "resources_count", "customer", "customer_uuid", "customer_name", "customer_slug", "customer_abbreviation", "customer_native_name",
  "is_industry", "oecd_fos_2007_code", "oecd_fos_2007_label",
];
const PROVIDER_FIELDS = [
  "url", "uuid", "description", "created", "customer", "customer_uuid", "customer_name", "customer_abbreviation", "customer_slug",
  "customer_native_name", "offering_count", "organization_groups",
];

describe("py-client parses", () => {
  const fieldsOf = (body: object | object[]) => Object.keys(Array.isArray(body) ? body[0] : body).sort();

  it("users: list, retrieve, me", async () => {
    const list = await problems("GET", "/api/users/", "/api/users/?page_size=300");
    expect(list.problems).toEqual([]);
    expect(fieldsOf(list.body)).toEqual([...USER_FIELDS].sort());
    const one = await problems("GET", "/api/users/:uuid/", `/api/users/${made.user.uuid}/`);
    expect(one.problems).toEqual([]);
    expect(one.body).toMatchObject({ has_usable_password: true, full_name: "Py Client", registration_method: "default" });
    const me = await problems("GET", "/api/users/me/", "/api/users/me/");
    expect(me.problems).toEqual([]);
  });

  it("users: create", async () => {
    const created = await problems("POST", "/api/users/", "/api/users/", { username: "py.created", email: "c@example.org" });
    expect(created.problems).toEqual([]);
    expect(fieldsOf(created.body)).toEqual([...USER_FIELDS].sort());
  });

  it("customers: list, retrieve, create", async () => {
    const list = await problems("GET", "/api/customers/", "/api/customers/?page_size=300");
    expect(list.problems).toEqual([]);
    expect(fieldsOf(list.body)).toEqual([...CUSTOMER_FIELDS].sort());
    const provider = await problems("GET", "/api/customers/:uuid/", `/api/customers/${t.world.provider.uuid}/`);
    expect(provider.problems).toEqual([]);
    expect(provider.body).toMatchObject({
      slug: "provider-org",
      display_name: "Provider Org",
      projects_count: 1,
      users_count: 3,
      is_service_provider: true,
      service_provider: `${t.baseUrl}/api/marketplace-service-providers/${t.world.serviceProvider.uuid}/`,
      service_provider_uuid: t.world.serviceProvider.uuid,
      accounting_start_date: provider.body.created,
    });
    const created = await problems("POST", "/api/customers/", "/api/customers/", { name: "Fresh Org" });
    expect(created.problems).toEqual([]);
    expect(created.body).toMatchObject({ display_name: "Fresh Org", projects_count: 0, users_count: 0, service_provider: null });
  });

  it("service providers: list, retrieve, create", async () => {
    const list = await problems("GET", "/api/marketplace-service-providers/", "/api/marketplace-service-providers/");
    expect(list.problems).toEqual([]);
    expect(fieldsOf(list.body)).toEqual([...PROVIDER_FIELDS].sort());
    const one = await problems("GET", "/api/marketplace-service-providers/:uuid/", `/api/marketplace-service-providers/${made.provider.uuid}/`);
    expect(one.problems).toEqual([]);
    expect(one.body).toMatchObject({ customer_name: "Py Client Org", customer_abbreviation: "PCO", customer_slug: "py-client-org", offering_count: 0 });
    const customer = (await t.http("POST", "/api/customers/", { token: staff, body: { name: "Another Provider" } })).body;
    const created = await problems("POST", "/api/marketplace-service-providers/", "/api/marketplace-service-providers/", { customer: customer.url });
    expect(created.problems).toEqual([]);
    expect(fieldsOf(created.body)).toEqual([...PROVIDER_FIELDS].sort());
  });

  it("projects: create with Waldur's classification, retrieve, list", async () => {
    const body = { customer: made.customer.uuid, name: "Classified", is_industry: true, oecd_fos_2007_code: "1.2" };
    const created = await problems("POST", "/api/projects/", "/api/projects/", body);
    expect(created.problems).toEqual([]);
    expect(created.body).toMatchObject({
      is_industry: true, oecd_fos_2007_code: "1.2", oecd_fos_2007_label: "Computer and information sciences", end_date_updated_at: null,
    });
    const one = await problems("GET", "/api/projects/:uuid/", `/api/projects/${t.world.project.uuid}/`);
    expect(one.problems).toEqual([]);
    expect(one.body).toMatchObject({ is_industry: false, oecd_fos_2007_code: null, oecd_fos_2007_label: "", end_date_updated_at: null });
    const list = await problems("GET", "/api/projects/", "/api/projects/?page_size=300");
    expect(list.problems).toEqual([]);
    expect(fieldsOf(list.body)).toEqual([...PROJECT_FIELDS].sort());
  });

  it("projects: end_date_updated_at is stamped when the end date changes, as Waldur's Project.save does", async () => {
    const db = t.app.deps.db;
    const customerId = parseUuid(made.customer.uuid)!;
    const project = await db.project.create({ data: { customerId, name: "Ending", endDate: new Date("2031-01-01") } });
    expect(project.endDateUpdatedAt).toBeNull();
    await db.project.update({ where: { id: project.id }, data: { name: "Renamed" } });
    expect((await db.project.findUniqueOrThrow({ where: { id: project.id } })).endDateUpdatedAt).toBeNull();
    await db.project.update({ where: { id: project.id }, data: { endDate: new Date("2032-01-01") } });
    const stamped = (await db.project.findUniqueOrThrow({ where: { id: project.id } })).endDateUpdatedAt;
    expect(stamped).toBeInstanceOf(Date);
    const one = await problems("GET", "/api/projects/:uuid/", `/api/projects/${toHex(project.id)}/`);
    expect(one.problems).toEqual([]);
    expect(Date.parse(one.body.end_date_updated_at)).toBe(stamped!.getTime());
  });

  it("projects: an OECD code not in Waldur's list is refused; blank and null are accepted", async () => {
    const post = (oecd_fos_2007_code: unknown) =>
      t.http("POST", "/api/projects/", { token: staff, body: { customer: made.customer.uuid, name: "Coded", oecd_fos_2007_code } });
    const bad = await post("9.9");
    expect([bad.status, bad.body]).toEqual([400, { oecd_fos_2007_code: ['"9.9" is not a valid choice.'] }]);
    expect((await post("")).body).toMatchObject({ oecd_fos_2007_code: "", oecd_fos_2007_label: "" });
    expect((await post(null)).body).toMatchObject({ oecd_fos_2007_code: null, oecd_fos_2007_label: "" });
  });

  it("a customer's counts follow its roles and projects", async () => {
    const world = await problems("GET", "/api/customers/:uuid/", `/api/customers/${t.world.consumer.uuid}/`);
    expect(world.body).toMatchObject({ projects_count: 1, users_count: 3, is_service_provider: false, service_provider_uuid: null });
  });
});
