import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Persona } from "../../test/support/world.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { offeringUrl, seedMaintenance } from "../../test/support/maintenance-fixtures.ts";

let t: TestApp;
let clock = new Date("2030-01-01T09:30:00Z");
beforeAll(async () => {
  t = await startTestApp({}, { now: () => clock });
});
afterAll(() => t.close());

const owner = () => t.world.tokens.providerOwner;
const act = (uuid: string, action: string) => t.http("POST", `/api/maintenance-announcements/${uuid}/${action}/`, { token: owner() });
const patch = (uuid: string, body: Record<string, unknown>) => t.http("PATCH", `/api/maintenance-announcements/${uuid}/`, { token: owner(), body });
const announcementOf = (id: string) => t.app.deps.db.adminAnnouncement.findUnique({ where: { maintenanceId: id } });

describe("the system announcement of a maintenance", () => {
  const TYPES: Array<[number, string, string]> = [
    [1, "🔧 Scheduled Maintenance", "INFORMATION"],
    [2, "🚨 Emergency Maintenance", "DANGER"],
    [3, "🔒 Security Maintenance", "WARNING"],
    [4, "🔧 Scheduled Maintenance", "INFORMATION"],
    [5, "🔧 Scheduled Maintenance", "INFORMATION"],
  ];
  for (const [maintenanceType, prefix, type] of TYPES) {
    it(`scheduling type ${maintenanceType} creates "${prefix}: …" (${type}) from start − 60 min to end + 1 h`, async () => {
      const m = await seedMaintenance(t, "DRAFT", { maintenanceType, message: "Disks replaced" });
      expect(await announcementOf(m.id)).toBeNull();
      expect((await act(m.uuid, "schedule")).status).toBe(200);
      const a = await announcementOf(m.id);
      expect(a).toMatchObject({ description: `${prefix}: Disks replaced`, type });
      expect(a!.activeFrom.toISOString()).toBe("2030-01-01T09:00:00.000Z");
      expect(a!.activeTo.toISOString()).toBe("2030-01-01T13:00:00.000Z");
    });
  }

  it("follows message, type and schedule while scheduled; not while in Draft", async () => {
    const draft = await seedMaintenance(t);
    await patch(draft.uuid, { message: "Still a draft" });
    expect(await announcementOf(draft.id)).toBeNull();

    const m = await seedMaintenance(t, "DRAFT", { message: "Old" });
    await act(m.uuid, "schedule");
    expect((await patch(m.uuid, { message: "New text", maintenance_type: 3 })).status).toBe(200);
    expect(await announcementOf(m.id)).toMatchObject({ description: "🔒 Security Maintenance: New text", type: "WARNING" });
    await patch(m.uuid, { scheduled_start: "2030-02-01T08:00:00Z", scheduled_end: "2030-02-01T09:30:00Z" });
    const moved = await announcementOf(m.id);
    expect(moved!.activeFrom.toISOString()).toBe("2030-02-01T07:00:00.000Z");
    expect(moved!.activeTo.toISOString()).toBe("2030-02-01T10:30:00.000Z");
  });

  it("start and completion move the window to the actual times", async () => {
    const m = await seedMaintenance(t);
    await act(m.uuid, "schedule");
    clock = new Date("2030-01-01T10:15:00Z");
    await act(m.uuid, "start_maintenance");
    expect((await announcementOf(m.id))!.activeFrom.toISOString()).toBe("2030-01-01T09:15:00.000Z");
    clock = new Date("2030-01-01T11:00:00Z");
    await act(m.uuid, "complete_maintenance");
    expect((await announcementOf(m.id))!.activeTo.toISOString()).toBe("2030-01-01T12:00:00.000Z");
    clock = new Date("2030-01-01T09:30:00Z");
  });

  it("unscheduling and cancelling remove it; scheduling again creates a new one", async () => {
    const m = await seedMaintenance(t);
    await act(m.uuid, "schedule");
    await act(m.uuid, "unschedule");
    expect(await announcementOf(m.id)).toBeNull();
    await act(m.uuid, "schedule");
    expect(await announcementOf(m.id)).not.toBeNull();
    await act(m.uuid, "cancel_maintenance");
    expect(await announcementOf(m.id)).toBeNull();
  });

  it("is deleted with the maintenance", async () => {
    const m = await seedMaintenance(t);
    await act(m.uuid, "schedule");
    const a = await announcementOf(m.id);
    expect((await t.http("DELETE", `/api/maintenance-announcements/${m.uuid}/`, { token: owner() })).status).toBe(204);
    expect(await t.app.deps.db.adminAnnouncement.count({ where: { id: a!.id } })).toBe(0);
  });

  it("is not recreated after staff deleted it by hand", async () => {
    const m = await seedMaintenance(t);
    await act(m.uuid, "schedule");
    const a = await announcementOf(m.id);
    expect((await t.http("DELETE", `/api/admin-announcements/${a!.id.replaceAll("-", "")}/`, { token: t.world.tokens.staff })).status).toBe(204);
    await patch(m.uuid, { message: "Changed after deletion" });
    await act(m.uuid, "start_maintenance");
    expect(await announcementOf(m.id)).toBeNull();
  });
});

describe("/api/admin-announcements/", () => {
  const KEYS = [
    "uuid", "description", "active_from", "active_to", "is_active", "type", "created", "maintenance_uuid", "maintenance_name",
    "maintenance_type", "maintenance_state", "maintenance_scheduled_start", "maintenance_scheduled_end",
    "maintenance_service_provider", "maintenance_affected_offerings", "maintenance_external_reference_url",
  ].sort();

  it("any authenticated user reads; maintenance fields describe the maintenance", async () => {
    const m = await seedMaintenance(t, "DRAFT", { name: "Kernel", maintenanceType: 2, externalReferenceUrl: "https://status.example.org" });
    await t.http("POST", "/api/maintenance-announcement-offerings/", {
      token: owner(),
      body: { maintenance: m.uuid, offering: offeringUrl(t), impact_level: 4, impact_description: "All down" },
    });
    await act(m.uuid, "schedule");
    const a = await announcementOf(m.id);
    const uuid = a!.id.replaceAll("-", "");
    for (const persona of ["unrelated", "projectMember", "providerOwner", "support"] as Persona[]) {
      const res = await t.http("GET", `/api/admin-announcements/${uuid}/`, { token: t.world.tokens[persona] });
      expect(res.status, persona).toBe(200);
    }
    const res = await t.http("GET", `/api/admin-announcements/${uuid}/`, { token: t.world.tokens.unrelated });
    expect(Object.keys(res.body).sort()).toEqual(KEYS);
    expect(res.body).toMatchObject({
      uuid,
      type: "danger",
      is_active: true,
      active_from: "2030-01-01T09:00:00Z",
      active_to: "2030-01-01T13:00:00Z",
      maintenance_uuid: m.uuid,
      maintenance_name: "Kernel",
      maintenance_type: "2",
      maintenance_state: "Scheduled",
      maintenance_scheduled_start: "2030-01-01T10:00:00Z",
      maintenance_scheduled_end: "2030-01-01T12:00:00Z",
      maintenance_service_provider: "Provider Org",
      maintenance_external_reference_url: "https://status.example.org",
      maintenance_affected_offerings: [
        { uuid: t.world.offering.uuid, name: "HPC", impact_level: "4", impact_level_display: "Full outage", impact_description: "All down" },
      ],
    });
    expect((await t.http("GET", "/api/admin-announcements/")).status).toBe(401);
  });

  it("staff create, update and delete; everyone else gets 403", async () => {
    const body = { description: "Welcome", active_from: "2030-01-01T00:00:00Z", active_to: "2030-01-02T00:00:00Z", type: "warning" };
    for (const persona of ["providerOwner", "support", "unrelated"] as Persona[]) {
      expect((await t.http("POST", "/api/admin-announcements/", { token: t.world.tokens[persona], body })).status, persona).toBe(403);
    }
    expect((await t.http("POST", "/api/admin-announcements/", { body })).status).toBe(401);
    const created = await t.http("POST", "/api/admin-announcements/", { token: t.world.tokens.staff, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ description: "Welcome", type: "warning", is_active: true, maintenance_affected_offerings: [] });
    // No maintenance: its fields are left out, as py-client cannot parse them as null.
    expect(Object.keys(created.body).filter((key) => key.startsWith("maintenance_"))).toEqual(["maintenance_affected_offerings"]);
    const path = `/api/admin-announcements/${created.body.uuid}/`;
    expect((await t.http("PATCH", path, { token: owner(), body: { description: "x" } })).status).toBe(403);
    const patched = await t.http("PATCH", path, { token: t.world.tokens.staff, body: { description: "Hello", type: "danger" } });
    expect(patched.body).toMatchObject({ description: "Hello", type: "danger" });
    expect((await t.http("DELETE", path, { token: owner() })).status).toBe(403);
    expect((await t.http("DELETE", path, { token: t.world.tokens.staff })).status).toBe(204);
    expect((await t.http("GET", path, { token: t.world.tokens.staff })).status).toBe(404);
  });

  it("validates input", async () => {
    const staff = t.world.tokens.staff;
    const missing = await t.http("POST", "/api/admin-announcements/", { token: staff, body: {} });
    expect(missing.body).toEqual({ active_from: ["This field is required."], active_to: ["This field is required."] });
    const activeWindow = { active_from: "2030-01-01T00:00:00Z", active_to: "2030-01-02T00:00:00Z" };
    const blank = await t.http("POST", "/api/admin-announcements/", { token: staff, body: { ...activeWindow, description: "  " } });
    expect([blank.status, blank.body.description]).toEqual([201, ""]);
    const nulled = await t.http("PATCH", `/api/admin-announcements/${blank.body.uuid}/`, { token: staff, body: { description: null } });
    expect(nulled.body).toEqual({ description: ["This field may not be null."] });
    const bad = await t.http("POST", "/api/admin-announcements/", {
      token: staff,
      body: { description: "x", active_from: "2030-01-02T00:00:00Z", active_to: "2030-01-01T00:00:00Z", type: "urgent" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ type: ['"urgent" is not a valid choice.'] });
    const window = await t.http("POST", "/api/admin-announcements/", {
      token: staff,
      body: { description: "x", active_from: "2030-01-02T00:00:00Z", active_to: "2030-01-01T00:00:00Z" },
    });
    expect(window.body).toEqual({ active_to: ["Active to must not be before active from."] });
  });

  it("filters description, is_active and type; orders by o", async () => {
    const staff = t.world.tokens.staff;
    const make = (description: string, from: string, to: string, type: string) =>
      t.http("POST", "/api/admin-announcements/", { token: staff, body: { description, active_from: from, active_to: to, type } });
    await make("zz-past notice", "2029-01-01T00:00:00Z", "2029-01-02T00:00:00Z", "information");
    await make("zz-current notice", "2029-12-01T00:00:00Z", "2030-02-01T00:00:00Z", "danger");
    const list = async (query: string) =>
      ((await t.http("GET", `/api/admin-announcements/?description=ZZ-&page_size=300&${query}`, { token: t.world.tokens.unrelated })).body as Array<{ description: string }>).map((a) => a.description);
    expect(await list("o=active_from")).toEqual(["zz-past notice", "zz-current notice"]);
    expect(await list("is_active=true")).toEqual(["zz-current notice"]);
    expect(await list("is_active=false")).toEqual(["zz-past notice"]);
    expect(await list("type=information&type=warning")).toEqual(["zz-past notice"]);
    expect((await t.http("GET", "/api/admin-announcements/?type=urgent", { token: staff })).status).toBe(400);
    expect((await t.http("GET", "/api/admin-announcements/?o=bogus", { token: staff })).status).toBe(400);
  });

  it("is_active: from active_from up to, not including, active_to (Waldur's filter and field)", async () => {
    const saved = clock;
    clock = new Date("2031-06-01T12:00:00Z");
    try {
      const make = (description: string, from: string, to: string) =>
        t.http("POST", "/api/admin-announcements/", { token: t.world.tokens.staff, body: { description, active_from: from, active_to: to } });
      await make("yy-ending now", "2031-06-01T11:00:00Z", "2031-06-01T12:00:00Z");
      await make("yy-starting now", "2031-06-01T12:00:00Z", "2031-06-01T13:00:00Z");
      const list = async (query: string) =>
        ((await t.http("GET", `/api/admin-announcements/?description=yy-&${query}`, { token: t.world.tokens.unrelated })).body as Array<{ description: string; is_active: boolean }>)
          .map((a) => [a.description, a.is_active]);
      expect(await list("is_active=true")).toEqual([["yy-starting now", true]]);
      expect(await list("is_active=false")).toEqual([["yy-ending now", false]]);
    } finally {
      clock = saved;
    }
  });

  it("orders by active_to, created, name and type", async () => {
    const saved = clock;
    const make = (description: string, to: string, type: string, created: string) => {
      clock = new Date(created);
      return t.http("POST", "/api/admin-announcements/", { token: t.world.tokens.staff, body: { description, active_from: "2029-01-01T00:00:00Z", active_to: to, type } });
    };
    await make("xx-b", "2030-03-01T00:00:00Z", "danger", "2029-06-01T00:00:00Z");
    await make("xx-c", "2030-01-01T00:00:00Z", "information", "2029-06-02T00:00:00Z");
    await make("xx-a", "2030-02-01T00:00:00Z", "warning", "2029-06-03T00:00:00Z");
    clock = saved;
    const list = async (o: string) =>
      ((await t.http("GET", `/api/admin-announcements/?description=xx-&o=${o}`, { token: t.world.tokens.unrelated })).body as Array<{ description: string }>).map((a) => a.description);
    expect(await list("-active_to")).toEqual(["xx-b", "xx-a", "xx-c"]);
    expect(await list("created")).toEqual(["xx-b", "xx-c", "xx-a"]);
    expect(await list("-name")).toEqual(["xx-c", "xx-b", "xx-a"]);
    // Our types are an enum in Waldur's declaration order (information, warning, danger), not alphabetical.
    expect(await list("type")).toEqual(["xx-c", "xx-a", "xx-b"]);
  });
});
