import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MaintenanceState } from "../generated/prisma/client.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { MAINTENANCE_STATES } from "./enums.ts";
import { seedMaintenance } from "../../test/support/maintenance-fixtures.ts";
import { MAINTENANCE_ACTIONS, MAINTENANCE_TRANSITIONS } from "./transitions.ts";

const STATES = Object.keys(MAINTENANCE_STATES) as MaintenanceState[];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const eventsOf = (id: string) =>
  t.app.deps.db.event.findMany({ where: { scopes: { some: { scopeType: "MAINTENANCE", scopeId: id } } }, include: { scopes: true } });

describe("maintenance actions over REST: every action from every state", () => {
  for (const action of MAINTENANCE_ACTIONS) {
    const rule = MAINTENANCE_TRANSITIONS[action];
    for (const from of STATES) {
      const valid = (rule.from as readonly string[]).includes(from);
      it(`${action} from ${from} ${valid ? `→ ${rule.to}` : "is 409"}`, async () => {
        const m = await seedMaintenance(t, from);
        const res = await t.http("POST", `/api/maintenance-announcements/${m.uuid}/${action}/`, { token: t.world.tokens.providerOwner });
        const after = await t.app.deps.db.maintenanceAnnouncement.findUniqueOrThrow({ where: { id: m.id } });
        const events = await eventsOf(m.id);
        if (valid) {
          expect(res.status).toBe(200);
          expect(res.body).toEqual({ detail: rule.effect.detail });
          expect(after.state).toBe(rule.to);
          expect(after.actualStart !== null).toBe(action === "start_maintenance");
          expect(after.actualEnd !== null).toBe(action === "complete_maintenance");
          expect(events).toHaveLength(1);
          expect(events[0].eventType).toBe(rule.effect.eventType);
          expect(events[0].message).toContain(m.name);
          expect(events[0].context).toMatchObject({
            maintenance_announcement_uuid: m.uuid,
            old_state: MAINTENANCE_STATES[from].label,
            new_state: MAINTENANCE_STATES[rule.to].label,
          });
          expect(events[0].scopes.map((s) => s.scopeType).sort()).toEqual(["CUSTOMER", "MAINTENANCE", "SERVICE_PROVIDER", "USER"]);
        } else {
          expect(res.status).toBe(409);
          expect(res.body).toEqual({
            detail: `Valid states for operation: ${rule.from.map((s) => MAINTENANCE_STATES[s].label).join(", ")}.`,
          });
          expect(after.state).toBe(from);
          expect(events).toHaveLength(0);
        }
      });
    }
  }
});

describe("action outcomes", () => {
  it("the full lifecycle sets actual_start and actual_end and shows them", async () => {
    const token = t.world.tokens.providerManager;
    const m = await seedMaintenance(t);
    for (const action of ["schedule", "start_maintenance", "complete_maintenance"]) {
      expect((await t.http("POST", `/api/maintenance-announcements/${m.uuid}/${action}/`, { token })).status).toBe(200);
    }
    const res = await t.http("GET", `/api/maintenance-announcements/${m.uuid}/`, { token });
    expect(res.body.state).toBe("Completed");
    expect(res.body.actual_start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
    expect(res.body.actual_end).toMatch(/Z$/);
  });

  it("a concurrent double schedule succeeds once and answers 409 to the other", async () => {
    const m = await seedMaintenance(t);
    const call = () => t.http("POST", `/api/maintenance-announcements/${m.uuid}/schedule/`, { token: t.world.tokens.staff });
    const statuses = (await Promise.all([call(), call(), call()])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    expect(await t.app.deps.db.adminAnnouncement.count({ where: { maintenanceId: m.id } })).toBe(1);
    expect((await eventsOf(m.id)).filter((e) => e.eventType === "maintenance_announcement_scheduled")).toHaveLength(1);
  });

  it("an action on an unknown or malformed uuid is 404, anonymous is 401", async () => {
    const m = await seedMaintenance(t);
    expect((await t.http("POST", `/api/maintenance-announcements/${"0".repeat(32)}/schedule/`, { token: t.world.tokens.staff })).status).toBe(404);
    expect((await t.http("POST", `/api/maintenance-announcements/garbage/schedule/`, { token: t.world.tokens.staff })).status).toBe(404);
    const anonymous = await t.http("POST", `/api/maintenance-announcements/${m.uuid}/schedule/`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe("Token");
  });

  it("GET on an action path is 405", async () => {
    const m = await seedMaintenance(t);
    const res = await t.http("GET", `/api/maintenance-announcements/${m.uuid}/schedule/`, { token: t.world.tokens.staff });
    expect(res.status).toBe(405);
  });
});
