import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("Event.type", () => {
  it("is the EventType enum for the types this version writes, null for another version's, and the list still answers", async () => {
    const db = t.app.deps.db;
    await db.event.create({ data: { eventType: "role_granted", message: "known", scopes: { create: { scopeType: "USER", scopeId: t.world.users.staff.id } } } });
    await db.event.create({ data: { eventType: "written_by_a_newer_version", message: "unknown", scopes: { create: { scopeType: "USER", scopeId: t.world.users.staff.id } } } });
    const res = await t.gql(`{ events(first: 10, orderBy: CREATED_ASC) { nodes { eventType type message } } }`, {}, t.world.tokens.staff);
    expect(res.errors).toBeUndefined();
    expect(res.data.events.nodes).toEqual(
      expect.arrayContaining([
        { eventType: "role_granted", type: "role_granted", message: "known" },
        { eventType: "written_by_a_newer_version", type: null, message: "unknown" },
      ]),
    );
    const rest = await t.http("GET", "/api/events/", { token: t.world.tokens.staff });
    expect(rest.status).toBe(200);
    expect(rest.body.map((e: { event_type: string }) => e.event_type)).toContain("written_by_a_newer_version");
  });
});
