import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Persona } from "../../test/support/world.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { createBody, END, seedMaintenance, serviceProviderUrl, START } from "../../test/support/maintenance-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const MANAGERS: Persona[] = ["staff", "providerOwner", "providerManager"];
const OUTSIDERS: Persona[] = ["providerSupport", "offeringManager", "projectAdmin", "projectManager", "projectMember", "unrelated"];
const WRONG_DATE_FORMAT = "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].";
const INVALID_PROVIDER = { service_provider: ["Invalid hyperlink - Object does not exist."] };

const MAINTENANCE_KEYS = [
  "url", "uuid", "name", "message", "internal_notes", "maintenance_type", "maintenance_type_display", "external_reference_url",
  "state", "scheduled_start", "scheduled_end", "actual_start", "actual_end", "service_provider", "service_provider_name",
  "created_by", "backend_id", "affected_offerings", "overrun_minutes", "start_delta_minutes", "timing_bucket",
].sort();

describe("response shape", () => {
  it("create answers 201 with every field Waldur's client requires, in Draft, nulls where unset", async () => {
    const res = await t.http("POST", "/api/maintenance-announcements/", {
      token: t.world.tokens.providerOwner,
      body: createBody(t, { maintenance_type: 2, internal_notes: "ops only", external_reference_url: "https://status.example.org/1" }),
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(MAINTENANCE_KEYS);
    expect(res.body).toMatchObject({
      url: `${t.baseUrl}/api/maintenance-announcements/${res.body.uuid}/`,
      name: "Storage upgrade",
      message: "The storage will be upgraded",
      internal_notes: "ops only",
      maintenance_type: 2,
      maintenance_type_display: "Emergency maintenance",
      external_reference_url: "https://status.example.org/1",
      state: "Draft",
      scheduled_start: START,
      scheduled_end: END,
      actual_start: null,
      actual_end: null,
      service_provider: serviceProviderUrl(t),
      service_provider_name: "Provider Org",
      created_by: `${t.baseUrl}/api/users/${t.world.users.providerOwner.uuid}/`,
      backend_id: "",
      affected_offerings: [],
      overrun_minutes: null,
      start_delta_minutes: null,
      timing_bucket: "pending",
    });
    expect(res.body.uuid).toMatch(/^[0-9a-f]{32}$/);
  });

  it("defaults: maintenance_type 1, empty texts", async () => {
    const res = await t.http("POST", "/api/maintenance-announcements/", {
      token: t.world.tokens.staff,
      body: { name: "Minimal", scheduled_start: START, scheduled_end: END, service_provider: t.world.serviceProvider.uuid },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ maintenance_type: 1, maintenance_type_display: "Scheduled maintenance", message: "", internal_notes: "" });
  });
});

describe("create permissions", () => {
  for (const persona of MANAGERS) {
    it(`${persona} creates (201)`, async () => {
      const res = await t.http("POST", "/api/maintenance-announcements/", { token: t.world.tokens[persona], body: createBody(t) });
      expect(res.status).toBe(201);
    });
  }
  for (const persona of [...OUTSIDERS, "support"] as Persona[]) {
    it(`${persona} gets 400 for a provider they cannot manage`, async () => {
      const res = await t.http("POST", "/api/maintenance-announcements/", { token: t.world.tokens[persona], body: createBody(t) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_PROVIDER);
    });
  }
  it("anonymous gets 401", async () => {
    expect((await t.http("POST", "/api/maintenance-announcements/", { body: createBody(t) })).status).toBe(401);
  });
});

describe("create validation", () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ["missing required fields", { message: "only" }, { name: ["This field is required."], scheduled_start: ["This field is required."], scheduled_end: ["This field is required."], service_provider: ["This field is required."] }],
    ["end before start", { scheduled_start: END, scheduled_end: START }, { scheduled_end: ["Scheduled end must be after scheduled start."] }],
    ["end equal to start", { scheduled_end: START }, { scheduled_end: ["Scheduled end must be after scheduled start."] }],
    ["unknown maintenance_type", { maintenance_type: 9 }, { maintenance_type: ['"9" is not a valid choice.'] }],
    ["blank name", { name: " " }, { name: ["This field may not be blank."] }],
    ["long name", { name: "x".repeat(151) }, { name: ["Ensure this field has no more than 150 characters."] }],
    ["bad reference url", { external_reference_url: "nope" }, { external_reference_url: ["Enter a valid URL."] }],
    ["unknown provider", { service_provider: serviceProviderUrl({ baseUrl: "http://x" } as TestApp, "0".repeat(32)) }, INVALID_PROVIDER],
    ["wrong collection", { service_provider: "http://x/api/customers/00000000000000000000000000000000/" }, INVALID_PROVIDER],
    ["null required fields", { name: null, scheduled_start: null, scheduled_end: null },
      { name: ["This field may not be null."], scheduled_start: ["This field may not be null."], scheduled_end: ["This field may not be null."] }],
    ["empty dates", { scheduled_start: "", scheduled_end: "" }, { scheduled_start: [WRONG_DATE_FORMAT], scheduled_end: [WRONG_DATE_FORMAT] }],
  ];
  for (const [name, override, errors] of cases) {
    it(`${name} → 400`, async () => {
      const body = name === "missing required fields" ? override : createBody(t, override);
      const res = await t.http("POST", "/api/maintenance-announcements/", { token: t.world.tokens.providerOwner, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
    });
  }
  it("malformed dates → 400 on the field", async () => {
    const res = await t.http("POST", "/api/maintenance-announcements/", { token: t.world.tokens.staff, body: createBody(t, { scheduled_start: "tomorrow" }) });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(["scheduled_start"]);
  });
});

describe("visibility", () => {
  it("staff, support and the provider's owners and managers see it; everyone else does not (list 200 without it, retrieve 404)", async () => {
    const m = await seedMaintenance(t);
    for (const persona of ["staff", "support", "providerOwner", "providerManager"] as Persona[]) {
      const list = await t.http("GET", "/api/maintenance-announcements/?page_size=300", { token: t.world.tokens[persona] });
      expect(list.body.map((x: { uuid: string }) => x.uuid), persona).toContain(m.uuid);
      expect((await t.http("GET", `/api/maintenance-announcements/${m.uuid}/`, { token: t.world.tokens[persona] })).status, persona).toBe(200);
    }
    for (const persona of OUTSIDERS) {
      const list = await t.http("GET", "/api/maintenance-announcements/", { token: t.world.tokens[persona] });
      expect(list.status, persona).toBe(200);
      expect(list.body, persona).toEqual([]);
      expect(list.headers.get("x-result-count")).toBe("0");
      expect((await t.http("GET", `/api/maintenance-announcements/${m.uuid}/`, { token: t.world.tokens[persona] })).status, persona).toBe(404);
    }
    expect((await t.http("GET", "/api/maintenance-announcements/")).status).toBe(401);
    expect((await t.http("GET", `/api/maintenance-announcements/${m.uuid}/`)).status).toBe(401);
  });
});

describe("update and delete", () => {
  for (const persona of MANAGERS) {
    it(`${persona}: PATCH 200, DELETE 204`, async () => {
      const m = await seedMaintenance(t);
      const token = t.world.tokens[persona];
      const patch = await t.http("PATCH", `/api/maintenance-announcements/${m.uuid}/`, { token, body: { message: "New text", maintenance_type: "3" } });
      expect(patch.status).toBe(200);
      expect(patch.body).toMatchObject({ message: "New text", maintenance_type: 3, name: m.name });
      expect((await t.http("DELETE", `/api/maintenance-announcements/${m.uuid}/`, { token })).status).toBe(204);
      expect(await t.app.deps.db.maintenanceAnnouncement.count({ where: { id: m.id } })).toBe(0);
    });
  }
  for (const persona of OUTSIDERS) {
    it(`${persona}: PATCH, PUT, DELETE 404`, async () => {
      const m = await seedMaintenance(t);
      const token = t.world.tokens[persona];
      expect((await t.http("PATCH", `/api/maintenance-announcements/${m.uuid}/`, { token, body: { message: "x" } })).status).toBe(404);
      expect((await t.http("PUT", `/api/maintenance-announcements/${m.uuid}/`, { token, body: createBody(t) })).status).toBe(404);
      expect((await t.http("DELETE", `/api/maintenance-announcements/${m.uuid}/`, { token })).status).toBe(404);
    });
  }
  it("support reads but may not change (403)", async () => {
    const m = await seedMaintenance(t);
    const token = t.world.tokens.support;
    expect((await t.http("PATCH", `/api/maintenance-announcements/${m.uuid}/`, { token, body: { message: "x" } })).status).toBe(403);
    expect((await t.http("DELETE", `/api/maintenance-announcements/${m.uuid}/`, { token })).status).toBe(403);
    expect((await t.http("POST", `/api/maintenance-announcements/${m.uuid}/schedule/`, { token })).status).toBe(403);
  });
  it("anonymous: 401", async () => {
    const m = await seedMaintenance(t);
    expect((await t.http("PATCH", `/api/maintenance-announcements/${m.uuid}/`, { body: { message: "x" } })).status).toBe(401);
    expect((await t.http("DELETE", `/api/maintenance-announcements/${m.uuid}/`)).status).toBe(401);
  });
  it("PUT needs the required fields; with them it replaces what is sent", async () => {
    const m = await seedMaintenance(t);
    const token = t.world.tokens.providerOwner;
    const partial = await t.http("PUT", `/api/maintenance-announcements/${m.uuid}/`, { token, body: { name: "Only name" } });
    expect(partial.status).toBe(400);
    expect(Object.keys(partial.body)).toContain("scheduled_start");
    const full = await t.http("PUT", `/api/maintenance-announcements/${m.uuid}/`, { token, body: createBody(t, { name: "Replaced" }) });
    expect(full.status).toBe(200);
    expect(full.body.name).toBe("Replaced");
  });
  it("PATCH keeps the schedule consistent with the stored value", async () => {
    const m = await seedMaintenance(t);
    const res = await t.http("PATCH", `/api/maintenance-announcements/${m.uuid}/`, { token: t.world.tokens.staff, body: { scheduled_end: "2029-12-31T00:00:00Z" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ scheduled_end: ["Scheduled end must be after scheduled start."] });
    expect((await t.app.deps.db.maintenanceAnnouncement.findUniqueOrThrow({ where: { id: m.id } })).scheduledEnd.toISOString()).toBe("2030-01-01T12:00:00.000Z");
  });
  it("moving to another provider needs the right to manage it (400)", async () => {
    const m = await seedMaintenance(t);
    const other = await t.app.deps.db.customer.create({ data: { name: "Elsewhere" } });
    const sp = await t.app.deps.db.serviceProvider.create({ data: { customerId: other.id } });
    const res = await t.http("PATCH", `/api/maintenance-announcements/${m.uuid}/`, {
      token: t.world.tokens.providerOwner,
      body: { service_provider: serviceProviderUrl(t, sp.id) },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_PROVIDER);
  });
});

describe("audit events", () => {
  it("create, update and delete write events the provider finds in /api/events/", async () => {
    const token = t.world.tokens.providerOwner;
    const created = await t.http("POST", "/api/maintenance-announcements/", { token, body: createBody(t, { name: "Audited" }) });
    const uuid = created.body.uuid;
    await t.http("PATCH", `/api/maintenance-announcements/${uuid}/`, { token, body: { message: "Updated maintenance message" } });
    await t.http("PATCH", `/api/maintenance-announcements/${uuid}/`, { token, body: { message: "Updated maintenance message" } });
    await t.http("DELETE", `/api/maintenance-announcements/${uuid}/`, { token });
    const types = ["maintenance_announcement_created", "maintenance_announcement_updated", "maintenance_announcement_deleted"];
    const res = await t.http("GET", `/api/events/?${types.map((ty) => `event_type=${ty}`).join("&")}&page_size=300`, { token: t.world.tokens.providerManager });
    const mine = res.body.filter((e: { context: Record<string, unknown> }) => e.context.maintenance_announcement_uuid === uuid);
    expect(mine.map((e: { event_type: string }) => e.event_type).sort()).toEqual(types.slice().sort());
    const update = mine.find((e: { event_type: string }) => e.event_type === "maintenance_announcement_updated");
    expect(update.message).toContain("Audited has been updated");
    expect(update.message).toContain("message:");
    expect(update.context).toMatchObject({ changed_fields: ["message"], user_uuid: t.world.users.providerOwner.uuid });
    const outsider = await t.http("GET", `/api/events/?event_type=maintenance_announcement_created`, { token: t.world.tokens.projectAdmin });
    expect(outsider.body.filter((e: { context: Record<string, unknown> }) => e.context.maintenance_announcement_uuid === uuid)).toEqual([]);
  });
});
