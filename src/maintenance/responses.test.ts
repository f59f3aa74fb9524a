import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, WALDUR, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { parseUuid } from "../platform/ids.ts";
import { createBody, maintenanceUrl, offeringUrl } from "../../test/support/maintenance-fixtures.ts";

/** Every maintenance and admin-announcement response, with every field filled, parses with Waldur's py-client models. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function call(method: string, path: string, body?: unknown, token: string | undefined = t.world.tokens.staff) {
  const res = await t.http(method, path, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

/** `servedPath` is the route's path (`/api/maintenance-announcements/:uuid/`); `path` the one called. */
async function problems(method: string, servedPath: string, path: string, body?: unknown, token?: string) {
  const operation = waldurOperation(method, servedPath);
  expect(operation, `${method} ${servedPath}`).toBeDefined();
  return responseProblems(operation!, await call(method, path, body, token));
}

describe("maintenance announcements", () => {
  it("create, update, actions, retrieve and the lists (managing and public)", async () => {
    const BASE = "/api/maintenance-announcements/";
    const ONE = `${BASE}:uuid/`;
    const body = createBody(t, { maintenance_type: 3, internal_notes: "ops", external_reference_url: "https://status.example.org/9" });
    const created = await call("POST", BASE, body, t.world.tokens.providerOwner);
    expect(responseProblems(waldurOperation("POST", BASE)!, created)).toEqual([]);
    const path = `${BASE}${created.uuid}/`;
    expect(await problems("PATCH", ONE, path, { message: "Changed" })).toEqual([]);
    expect(await problems("PUT", ONE, path, { ...body, name: "Replaced" })).toEqual([]);
    await t.app.deps.db.maintenanceAnnouncement.update({ where: { id: parseUuid(created.uuid)! }, data: { backendId: "ticket-9" } });

    const LINKS = "/api/maintenance-announcement-offerings/";
    const link = { maintenance: maintenanceUrl(t, created.uuid), offering: offeringUrl(t), impact_level: 2, impact_description: "Slow" };
    const linked = await call("POST", LINKS, link);
    expect(responseProblems(waldurOperation("POST", LINKS)!, linked)).toEqual([]);
    expect(await problems("PATCH", `${LINKS}:uuid/`, `${LINKS}${linked.uuid}/`, { impact_level: 4 })).toEqual([]);
    expect(await problems("GET", `${LINKS}:uuid/`, `${LINKS}${linked.uuid}/`)).toEqual([]);
    expect(await problems("GET", LINKS, LINKS)).toEqual([]);

    expect(await problems("POST", `${ONE}schedule/`, `${path}schedule/`)).toEqual([]);
    expect(await problems("POST", `${ONE}start_maintenance/`, `${path}start_maintenance/`)).toEqual([]);
    const started = await call("GET", path);
    expect(started).toMatchObject({ timing_bucket: expect.any(String), start_delta_minutes: expect.any(Number), overrun_minutes: null });
    expect(await problems("GET", ONE, path)).toEqual([]);
    expect(await problems("POST", `${ONE}complete_maintenance/`, `${path}complete_maintenance/`)).toEqual([]);
    expect(await problems("GET", ONE, path)).toEqual([]);
    expect(await problems("GET", BASE, `${BASE}?o=-overrun_minutes`)).toEqual([]);

    const PUBLIC = "/api/public-maintenance-announcements/";
    expect(await problems("GET", PUBLIC, PUBLIC, undefined, "")).toEqual([]);
    expect(await problems("GET", `${PUBLIC}:uuid/`, `${PUBLIC}${created.uuid}/`, undefined, "")).toEqual([]);

    const draft = await call("POST", BASE, body, t.world.tokens.providerOwner);
    for (const action of ["schedule", "unschedule", "cancel_maintenance"]) {
      expect(await problems("POST", `${ONE}${action}/`, `${BASE}${draft.uuid}/${action}/`)).toEqual([]);
    }
  });
});

describe("admin announcements", () => {
  const BASE = "/api/admin-announcements/";
  const ONE = `${BASE}:uuid/`;

  it("one announcing a maintenance: retrieve", async () => {
    const m = await call("POST", "/api/maintenance-announcements/", createBody(t, { maintenance_type: 2, external_reference_url: "https://x.example.org" }));
    await call("POST", "/api/maintenance-announcement-offerings/", { maintenance: m.uuid, offering: offeringUrl(t), impact_level: 3, impact_description: "Half" });
    await call("POST", `/api/maintenance-announcements/${m.uuid}/schedule/`);
    const announcement = await t.app.deps.db.adminAnnouncement.findUniqueOrThrow({ where: { maintenanceId: parseUuid(m.uuid)! } });
    const path = `${BASE}${announcement.id.replaceAll("-", "")}/`;
    expect(await call("GET", path)).toMatchObject({ maintenance_type: "2", maintenance_affected_offerings: [{ impact_level: "3" }] });
    expect(await problems("GET", ONE, path)).toEqual([]);
  });

  it("one announcing no maintenance: create, update, retrieve", async () => {
    const body = { description: "Welcome", active_from: "2030-01-01T00:00:00Z", active_to: "2030-01-02T00:00:00Z", type: "warning" };
    const created = await call("POST", BASE, body);
    expect(responseProblems(waldurOperation("POST", BASE)!, created)).toEqual([]);
    const path = `${BASE}${created.uuid}/`;
    expect(await problems("PATCH", ONE, path, { description: "Hello" })).toEqual([]);
    expect(await problems("PUT", ONE, path, body)).toEqual([]);
    expect(await problems("GET", ONE, path)).toEqual([]);
  });

  it("create with only the fields py-client's request model requires", async () => {
    const body = { active_from: "2030-01-01T00:00:00Z", active_to: "2030-01-02T00:00:00Z" };
    expect(Object.keys(WALDUR.models.AdminAnnouncementRequest.required).sort()).toEqual(Object.keys(body));
    const created = await call("POST", BASE, body);
    expect(responseProblems(waldurOperation("POST", BASE)!, created)).toEqual([]);
    expect(created).toMatchObject({ description: "", type: "information" });
  });

  // Needs the REST adapter to reshape each list item with the route's `shape` (rest-adapter/app.ts), as it does objects.
  it("the list", async () => {
    expect(await problems("GET", BASE, `${BASE}?page_size=300`)).toEqual([]);
  });
});
