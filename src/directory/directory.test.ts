import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import type { Persona } from "../../test/support/world.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const HEX = /^[0-9a-f]{32}$/;
const as = (persona: Persona) => t.world.tokens[persona];
const usernames = (body: Array<{ username: string }>) => body.map((u) => u.username).sort();
const uuids = (body: Array<{ uuid: string }>) => body.map((o) => o.uuid);

async function createCustomer(name: string) {
  const res = await t.http("POST", "/api/customers/", { token: as("staff"), body: { name } });
  expect(res.status).toBe(201);
  return res.body as { uuid: string; url: string };
}

describe("/api/users/", () => {
  const VISIBLE: Array<[Persona, string[]]> = [
    ["unrelated", ["unrelated"]],
    ["providerOwner", ["providerManager", "providerOwner", "providerSupport"]],
    ["projectMember", ["projectAdmin", "projectManager", "projectMember"]],
    ["offeringManager", ["offeringManager"]],
  ];
  for (const [persona, expected] of VISIBLE) {
    it(`${persona} sees themselves and the people they share a customer or project with`, async () => {
      const res = await t.http("GET", "/api/users/?page_size=300", { token: as(persona) });
      expect(res.status).toBe(200);
      expect(usernames(res.body).filter((name) => !name.startsWith("member"))).toEqual(expected);
    });
  }

  it("staff and support see every user", async () => {
    const total = await t.app.deps.db.user.count();
    for (const persona of ["staff", "support"] as const) {
      const res = await t.http("GET", "/api/users/?page_size=300", { token: as(persona) });
      expect(res.body).toHaveLength(total);
      expect(res.headers.get("x-result-count")).toBe(String(total));
    }
  });

  it("filters by username and by query", async () => {
    const exact = await t.http("GET", "/api/users/?username=projectAdmin", { token: as("staff") });
    expect(usernames(exact.body)).toEqual(["projectAdmin"]);
    const query = await t.http("GET", "/api/users/?query=PROJECT", { token: as("staff") });
    expect(usernames(query.body)).toEqual(["projectAdmin", "projectManager", "projectMember"]);
  });

  it("retrieve: the serializer's fields, hex uuid, absolute url", async () => {
    const uuid = t.world.users.projectAdmin.uuid;
    const res = await t.http("GET", `/api/users/${uuid}/`, { token: as("projectMember") });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: `${t.baseUrl}/api/users/${uuid}/`,
      uuid,
      username: "projectAdmin",
      email: "projectAdmin@example.org",
      first_name: "projectAdmin",
      last_name: "Test",
      full_name: "projectAdmin Test",
      is_staff: false,
      is_support: false,
      is_active: true,
      date_joined: expect.stringMatching(/Z$/),
      has_usable_password: false,
      registration_method: "default",
      native_name: "",
      job_title: "",
      phone_number: "",
      organization: "",
      description: "",
      civil_number: null,
      agreement_date: null,
    });
  });

  it("retrieving a user one cannot see → 404", async () => {
    const res = await t.http("GET", `/api/users/${t.world.users.projectAdmin.uuid}/`, { token: as("unrelated") });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Not found." });
  });

  it("/api/users/me/ is the caller", async () => {
    for (const persona of ["staff", "support", "offeringManager", "unrelated"] as const) {
      const res = await t.http("GET", "/api/users/me/", { token: as(persona) });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ username: persona, uuid: t.world.users[persona].uuid, is_staff: persona === "staff" });
    }
  });

  it("create is staff-only: 201 with the new user, no password echoed", async () => {
    const res = await t.http("POST", "/api/users/", {
      token: as("staff"),
      body: { username: "new.user", email: "new@example.org", first_name: "New", last_name: "User", password: "pw-123456", is_support: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: "new.user", email: "new@example.org", full_name: "New User", is_staff: false, is_support: true });
    expect(res.body.uuid).toMatch(HEX);
    expect(res.text).not.toContain("pw-123456");
    expect(res.body).not.toHaveProperty("password");
    const stored = await t.app.deps.db.user.findUniqueOrThrow({ where: { username: "new.user" } });
    expect(stored.passwordHash).not.toContain("pw-123456");
  });

  for (const persona of ["support", "providerOwner", "projectAdmin", "unrelated"] as const) {
    it(`create by ${persona} → 403`, async () => {
      const res = await t.http("POST", "/api/users/", { token: as(persona), body: { username: `by-${persona}` } });
      expect(res.status).toBe(403);
      expect(await t.app.deps.db.user.count({ where: { username: `by-${persona}` } })).toBe(0);
    });
  }

  const INVALID: Array<[Record<string, unknown>, Record<string, string[]>]> = [
    [{ username: "projectAdmin" }, { username: ["A user with that username already exists."] }],
    [{ username: "has space" }, { username: ["Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."] }],
    [{ username: "ok", email: "not-an-email" }, { email: ["Enter a valid email address."] }],
    [{}, { username: ["This field is required."] }],
  ];
  for (const [body, errors] of INVALID) {
    it(`create ${JSON.stringify(body)} → 400`, async () => {
      const before = await t.app.deps.db.user.count();
      const res = await t.http("POST", "/api/users/", { token: as("staff"), body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await t.app.deps.db.user.count()).toBe(before);
    });
  }
});

describe("/api/customers/", () => {
  it("create is staff-only; 201 with the serializer's fields", async () => {
    const res = await t.http("POST", "/api/customers/", { token: as("staff"), body: { name: "Acme", abbreviation: "ACME", email: "a@acme.org" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      url: `${t.baseUrl}/api/customers/${res.body.uuid}/`,
      uuid: expect.stringMatching(HEX),
      name: "Acme",
      abbreviation: "ACME",
      email: "a@acme.org",
      created: expect.stringMatching(/Z$/),
      slug: "acme",
      display_name: "ACME",
      accounting_start_date: res.body.created,
      projects_count: 0,
      users_count: 0,
      is_service_provider: false,
      service_provider: null,
      service_provider_uuid: null,
      native_name: "",
      contact_details: "",
      agreement_number: "",
      registration_code: "",
      backend_id: "",
      archived: false,
      organization_groups: [],
    });
    for (const persona of ["support", "providerOwner", "unrelated"] as const) {
      const denied = await t.http("POST", "/api/customers/", { token: as(persona), body: { name: `Org of ${persona}` } });
      expect(denied.status, persona).toBe(403);
    }
    expect(await t.app.deps.db.customer.count({ where: { name: { startsWith: "Org of" } } })).toBe(0);
  });

  it("a blank name → 400", async () => {
    const res = await t.http("POST", "/api/customers/", { token: as("staff"), body: { name: "  " } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ["This field may not be blank."] });
  });

  const VISIBLE: Array<[Persona, () => string[]]> = [
    ["providerOwner", () => [t.world.provider.uuid]],
    ["providerSupport", () => [t.world.provider.uuid]],
    ["offeringManager", () => [t.world.provider.uuid]],
    ["projectMember", () => [t.world.consumer.uuid]],
    ["unrelated", () => []],
  ];
  for (const [persona, expected] of VISIBLE) {
    it(`${persona} sees only the customers they hold a role in or under`, async () => {
      const res = await t.http("GET", "/api/customers/", { token: as(persona) });
      expect(res.status).toBe(200);
      expect(uuids(res.body)).toEqual(expected());
      expect(res.headers.get("x-result-count")).toBe(String(expected().length));
    });
  }

  it("a customer one cannot see → 404; one can → 200", async () => {
    expect((await t.http("GET", `/api/customers/${t.world.provider.uuid}/`, { token: as("projectAdmin") })).status).toBe(404);
    expect((await t.http("GET", `/api/customers/${t.world.consumer.uuid}/`, { token: as("projectAdmin") })).status).toBe(200);
  });
});

describe("/api/projects/", () => {
  it("the customer's owner may create a project (CREATE_PROJECT): 201", async () => {
    const res = await t.http("POST", "/api/projects/", {
      token: as("providerOwner"),
      body: { customer: `${t.baseUrl}/api/customers/${t.world.provider.uuid}/`, name: "Provider lab", description: "d" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Provider lab",
      description: "d",
      customer: `${t.baseUrl}/api/customers/${t.world.provider.uuid}/`,
      customer_uuid: t.world.provider.uuid,
      customer_name: "Provider Org",
      url: `${t.baseUrl}/api/projects/${res.body.uuid}/`,
    });
  });

  for (const persona of ["providerManager", "providerSupport", "offeringManager", "projectAdmin", "support", "unrelated"] as const) {
    it(`${persona} may not create a project in the provider customer → 403`, async () => {
      const res = await t.http("POST", "/api/projects/", { token: as(persona), body: { customer: t.world.provider.uuid, name: `by ${persona}` } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: "You do not have permission to perform this action." });
      expect(await t.app.deps.db.project.count({ where: { name: `by ${persona}` } })).toBe(0);
    });
  }

  it("an unknown customer → 400 invalid hyperlink", async () => {
    const res = await t.http("POST", "/api/projects/", { token: as("staff"), body: { customer: "0".repeat(32), name: "x" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ customer: ["Invalid hyperlink - Object does not exist."] });
  });

  it("list visibility: project roles see their project, customer roles see the customer's projects", async () => {
    const member = await t.http("GET", "/api/projects/", { token: as("projectMember") });
    expect(uuids(member.body)).toEqual([t.world.project.uuid]);
    const owner = await t.http("GET", "/api/projects/", { token: as("providerOwner") });
    expect(owner.body.map((p: { customer_uuid: string }) => p.customer_uuid)).toEqual(owner.body.map(() => t.world.provider.uuid));
    expect(uuids(owner.body)).not.toContain(t.world.project.uuid);
    expect((await t.http("GET", "/api/projects/", { token: as("unrelated") })).body).toEqual([]);
  });

  it("filters by customer_uuid", async () => {
    const res = await t.http("GET", `/api/projects/?customer_uuid=${t.world.consumer.uuid}`, { token: as("staff") });
    expect(uuids(res.body)).toEqual([t.world.project.uuid]);
  });
});

describe("/api/marketplace-service-providers/", () => {
  it("staff registers a customer as a service provider: 201; a second time → 400", async () => {
    const customer = await createCustomer("Future Provider");
    const res = await t.http("POST", "/api/marketplace-service-providers/", { token: as("staff"), body: { customer: customer.url, description: "HPC centre" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ customer: customer.url, customer_uuid: customer.uuid, customer_name: "Future Provider", description: "HPC centre" });
    expect(res.body.url).toBe(`${t.baseUrl}/api/marketplace-service-providers/${res.body.uuid}/`);

    const again = await t.http("POST", "/api/marketplace-service-providers/", { token: as("staff"), body: { customer: customer.uuid } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ customer: ["Service provider with this customer already exists."] });
    expect(await t.app.deps.db.serviceProvider.count({ where: { customerId: { not: t.world.provider.id } } })).toBeGreaterThanOrEqual(1);
  });

  it("the world's provider is already registered → 400", async () => {
    const res = await t.http("POST", "/api/marketplace-service-providers/", { token: as("providerOwner"), body: { customer: t.world.provider.uuid } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ customer: ["Service provider with this customer already exists."] });
  });

  it("without REGISTER_SERVICE_PROVIDER on the customer → 403", async () => {
    for (const persona of ["projectAdmin", "support", "unrelated"] as const) {
      const res = await t.http("POST", "/api/marketplace-service-providers/", { token: as(persona), body: { customer: t.world.consumer.uuid } });
      expect(res.status, persona).toBe(403);
    }
    expect(await t.app.deps.db.serviceProvider.count({ where: { customerId: t.world.consumer.id } })).toBe(0);
  });

  it("list filter customer_uuid", async () => {
    const res = await t.http("GET", `/api/marketplace-service-providers/?customer_uuid=${t.world.provider.uuid}`, { token: as("unrelated") });
    expect(res.status).toBe(200);
    expect(uuids(res.body)).toEqual([t.world.serviceProvider.uuid]);
    const none = await t.http("GET", `/api/marketplace-service-providers/?customer_uuid=${t.world.consumer.uuid}`, { token: as("staff") });
    expect(none.body).toEqual([]);
    expect(none.headers.get("x-result-count")).toBe("0");
  });

  it("retrieve", async () => {
    const res = await t.http("GET", `/api/marketplace-service-providers/${t.world.serviceProvider.id}/`, { token: as("providerManager") });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: t.world.serviceProvider.uuid, customer_uuid: t.world.provider.uuid, customer_name: "Provider Org" });
  });
});
