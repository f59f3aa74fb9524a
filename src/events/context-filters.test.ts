import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("filters on an event's context", () => {
  it("a value no stored context can hold (a lone UTF-16 surrogate) matches nothing, over GraphQL and REST", async () => {
    const db = t.app.deps.db;
    await db.event.create({ data: { eventType: "role_granted", message: "with a pat", context: { pat_uuid: "pat-1", auth_method: "pat" } } });
    for (const filter of [{ patUuid: "pat\udc00" }, { authMethod: "\ud800" }]) {
      const res = await t.gql(`query($f: EventFilter) { events(filter: $f) { totalCount } eventCount(filter: $f) }`, { f: filter }, t.world.tokens.staff);
      expect(res.errors).toBeUndefined();
      expect(res.data).toEqual({ events: { totalCount: 0 }, eventCount: 0 });
    }
    const rest = await t.http("GET", `/api/events/?pat_uuid=${encodeURIComponent("pat")}%ED%B0%80`, { token: t.world.tokens.staff });
    expect(rest.status).toBeLessThan(500);
    const found = await t.gql(`{ events(filter: { patUuid: "pat-1" }) { totalCount } }`, {}, t.world.tokens.staff);
    expect(found.data.events.totalCount).toBe(1);
  });
});
