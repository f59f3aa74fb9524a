import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MaintenanceState } from "../generated/prisma/client.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { offeringUrl, otherProvider, seedMaintenance } from "../../test/support/maintenance-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BASE = "/api/public-maintenance-announcements/";
/** Waldur's PublicMaintenanceAnnouncement: exactly these keys (no internal_notes, created_by, backend_id). */
const PUBLIC_KEYS = [
  "url", "uuid", "name", "message", "maintenance_type", "maintenance_type_display", "external_reference_url", "state",
  "scheduled_start", "scheduled_end", "actual_start", "actual_end", "affected_offerings", "service_provider_name",
].sort();

describe("public maintenance view", () => {
  const visible: Record<MaintenanceState, boolean> = { DRAFT: false, SCHEDULED: true, IN_PROGRESS: true, COMPLETED: true, CANCELLED: false };
  for (const [state, shown] of Object.entries(visible) as Array<[MaintenanceState, boolean]>) {
    it(`${state}: ${shown ? "listed and retrievable" : "absent and 404"} for anonymous callers`, async () => {
      const m = await seedMaintenance(t, state, { internalNotes: "secret" });
      const list = await t.http("GET", `${BASE}?page_size=300`);
      expect(list.status).toBe(200);
      expect(list.body.some((x: { uuid: string }) => x.uuid === m.uuid)).toBe(shown);
      const one = await t.http("GET", `${BASE}${m.uuid}/`);
      expect(one.status).toBe(shown ? 200 : 404);
    });
  }

  it("shows every field the client needs and nothing internal; nested offerings included", async () => {
    const m = await seedMaintenance(t, "SCHEDULED", { internalNotes: "secret", backendId: "ticket-1", createdById: t.world.users.providerOwner.id });
    await t.http("POST", "/api/maintenance-announcement-offerings/", {
      token: t.world.tokens.providerOwner,
      body: { maintenance: m.uuid, offering: offeringUrl(t), impact_level: 2 },
    });
    const res = await t.http("GET", `${BASE}${m.uuid}/`);
    expect(Object.keys(res.body).sort()).toEqual(PUBLIC_KEYS);
    expect(res.text).not.toContain("secret");
    expect(res.text).not.toContain("ticket-1");
    expect(res.body).toMatchObject({
      url: `${t.baseUrl}${BASE}${m.uuid}/`,
      state: "Scheduled",
      maintenance_type: 1,
      maintenance_type_display: "Scheduled maintenance",
      actual_start: null,
      actual_end: null,
      service_provider_name: "Provider Org",
    });
    expect(res.body.affected_offerings).toHaveLength(1);
    expect(res.body.affected_offerings[0]).toMatchObject({ offering_name: "HPC", impact_level: 2, impact_level_display: "Degraded performance" });
  });

  it("shows every organisation's announcements, to any caller", async () => {
    const other = await otherProvider(t);
    const m = await seedMaintenance(t, "IN_PROGRESS", { serviceProviderId: other.serviceProvider.id });
    for (const token of [undefined, t.world.tokens.projectMember, t.world.tokens.providerOwner]) {
      expect((await t.http("GET", `${BASE}${m.uuid}/`, { token })).status).toBe(200);
    }
  });

  it("is read-only: other methods are 405, even anonymously", async () => {
    const m = await seedMaintenance(t, "SCHEDULED");
    for (const [method, path] of [["POST", BASE], ["PUT", `${BASE}${m.uuid}/`], ["PATCH", `${BASE}${m.uuid}/`], ["DELETE", `${BASE}${m.uuid}/`]]) {
      const res = await t.http(method, path, { body: { name: "x" } });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.body).toEqual({ detail: `Method "${method}" not allowed.` });
    }
  });

  it("a token that is sent must be valid (401), as DRF authenticates before AllowAny", async () => {
    const res = await t.http("GET", BASE, { headers: { authorization: `Token ${"0".repeat(40)}` } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: "Invalid token." });
  });

  it("HEAD gives the count without a body", async () => {
    const res = await fetch(`${t.baseUrl}${BASE}`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("x-result-count"))).toBeGreaterThan(0);
    expect(await res.text()).toBe("");
  });
});
