import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maintenanceRest } from "./rest.ts";
import { adminAnnouncementRest } from "./rest-admin-announcements.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { toHex } from "../platform/ids.ts";
import { seedMaintenance } from "../../test/support/maintenance-fixtures.ts";

/** Every maintenance and announcement route, fed odd values in every field it reads: never a 5xx. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ maxBodyBytes: 8192 });
});
afterAll(() => t.close());

const FIELDS = [
  "name", "message", "internal_notes", "maintenance_type", "external_reference_url", "scheduled_start", "scheduled_end",
  "service_provider", "maintenance", "offering", "impact_level", "impact_description", "description", "type", "active_from", "active_to",
];
const ODD: unknown[] = [null, 0, -1, 1.5, 1e300, true, "", " ", "x".repeat(5000), [], {}, "2030-13-45T99:99:99Z", "not-a-uuid", "275760-09-13T00:00:00Z", "\ud800"];
const QUERIES = ["state=x", "maintenance_type=-1", "maintenance_type=99999999999", "scheduled_start_after=x", "o=-", "is_active=maybe", "type=", "description=%25", "maintenance_uuid=1"];

async function realUuids(path: string) {
  const m = await seedMaintenance(t, "SCHEDULED");
  if (path.startsWith("/api/maintenance-announcement-offerings/")) {
    const link = await t.app.deps.db.maintenanceAnnouncementOffering.create({ data: { maintenanceId: m.id, offeringId: t.world.offering.id } });
    return [toHex(link.id)];
  }
  if (path.startsWith("/api/admin-announcements/")) {
    const a = await t.app.deps.db.adminAnnouncement.create({ data: { description: "x", activeFrom: new Date(), activeTo: new Date() } });
    return [toHex(a.id)];
  }
  return [m.uuid];
}

/** A body that would pass, so an odd value in one field reaches as deep as it can. */
const validBody = (t: TestApp, maintenanceUuid: string): Record<string, unknown> => ({
  name: "n", message: "m", scheduled_start: "2030-01-01T10:00:00Z", scheduled_end: "2030-01-01T12:00:00Z",
  service_provider: t.world.serviceProvider.uuid, maintenance: maintenanceUuid, offering: t.world.offering.uuid,
  impact_level: 2, description: "d", active_from: "2030-01-01T10:00:00Z", active_to: "2030-01-01T12:00:00Z", type: "warning",
});

describe("odd input never causes a server error", () => {
  for (const route of [...maintenanceRest.routes, ...adminAnnouncementRest.routes]) {
    it(`${route.method} ${route.path}`, async () => {
      const paths = route.path.includes(":uuid")
        ? [...(await realUuids(route.path)), "garbage"].map((uuid) => route.path.replace(":uuid", uuid))
        : [route.path];
      for (const path of paths) {
        for (const token of [t.world.tokens.staff, undefined]) {
          for (const query of QUERIES) {
            const res = await t.http(route.method, `${path}?${query}`, { token });
            expect(res.status, `${route.method} ${path}?${query}`).toBeLessThan(500);
          }
          if (route.method === "GET") continue;
          for (const value of ODD) {
            const body = Object.fromEntries(FIELDS.map((field) => [field, value]));
            const res = await t.http(route.method, path, { token, body });
            expect(res.status, `${route.method} ${path} ${JSON.stringify(value)?.slice(0, 40)}`).toBeLessThan(500);
          }
        }
      }
      if (route.method === "GET" || route.method === "DELETE") return;
      const fresh = await seedMaintenance(t, "DRAFT");
      // One odd value at a time in each field the route reads (a field it does not read is ignored, as the all-odd
      // bodies above show).
      const bodyFields = route.body?.fields;
      const read = bodyFields ? FIELDS.filter((field) => field in bodyFields) : FIELDS;
      expect(read.length, `${route.method} ${route.path} reads none of FIELDS`).toBeGreaterThan(0);
      for (const path of paths.slice(0, 1)) {
        for (const field of read) {
          for (const value of ODD) {
            const body = { ...validBody(t, fresh.uuid), [field]: value };
            const res = await t.http(route.method, path, { token: t.world.tokens.staff, body });
            expect(res.status, `${route.method} ${path} ${field}=${JSON.stringify(value)?.slice(0, 40)}`).toBeLessThan(500);
          }
        }
      }
    });
  }
});
