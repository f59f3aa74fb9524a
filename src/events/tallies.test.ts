import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { countSql } from "../../test/support/sql-counter.ts";
import { foldTallies } from "../platform/database/tallies.ts";
import { EVENT_TALLIES } from "./tallies.ts";

/** Staff's X-Result-Count of events comes from the per-type tallies where the filter is about types alone. */
const TYPES = ["role_granted", "token_created", "marketplace_offering_user_updated"];
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  const scope = { scopeType: "CUSTOMER" as const, scopeId: t.world.provider.id };
  for (let i = 0; i < 12; i++) {
    await t.app.deps.db.event.create({ data: { eventType: TYPES[i % 3], message: `event ${i}`, scopes: { create: [scope] } } });
  }
});
afterAll(() => t.close());

const FILTERS = ["", "event_type=role_granted", "event_type=role_granted&event_type=token_created", "event_type=nothing_like_it", "feature=permissions", "created_from=0"];

async function countsAgree() {
  for (const viewer of ["staff", "support", "providerOwner"] as const) {
    for (const filter of FILTERS) {
      const res = await t.http("GET", `/api/events/?page_size=300&${filter}`, { token: t.world.tokens[viewer] });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-result-count"), `${viewer} ?${filter}`).toBe(String(res.body.length));
    }
  }
}

it("is the number of events listed, for every filter, before and after a fold, and after a deletion", async () => {
  await countsAgree();
  await foldTallies(t.app.deps.db, EVENT_TALLIES);
  expect(await t.app.deps.db.eventTally.count()).toBe((await t.app.deps.db.event.groupBy({ by: ["eventType"] })).length);
  await countsAgree();
  await t.app.deps.db.event.deleteMany({ where: { eventType: "token_created" } });
  await countsAgree();
});

it("staff's count sums the tallies; a filter on more than the type counts the events", async () => {
  const counted = async (filter: string) => (await countSql(() => t.http("GET", `/api/events/?${filter}`, { token: t.world.tokens.staff }))).texts.join("\n");
  expect(await counted("event_type=role_granted")).toMatch(/sum\("delta"\)[\s\S]*"event_tallies"/i);
  expect(await counted("event_type=role_granted")).not.toMatch(/COUNT\(\*\)/);
  expect(await counted("created_from=0")).toMatch(/COUNT\(\*\)[\s\S]*"events"/);
});
