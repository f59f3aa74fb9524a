import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../../test/support/app.ts";
import { makeResource, orderIn } from "../../../test/support/order-fixtures.ts";

/** Every case-insensitive filter takes the caller's text literally: %, _ and \ are characters, not LIKE patterns. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  await db.user.create({ data: { username: "percent", email: "100%@Example.org", firstName: "Per_cent" } });
  await db.user.create({ data: { username: "backslash", email: "back\\slash@example.org" } });
  for (const name of ["50% Off Ltd", "Under_score", "Back\\slash"]) {
    expect((await t.http("POST", "/api/customers/", { token: t.world.tokens.staff, body: { name } })).status).toBe(201);
  }
  await makeResource(db, t.world, "OK", { name: "10% used" });
  await orderIn(db, t.world, "DONE");
  await t.world.offeringUser("OK", { username: "plain" });
  const day = 86_400_000;
  await db.adminAnnouncement.create({ data: { description: "Plain news", activeFrom: new Date(Date.now() - day), activeTo: new Date(Date.now() + day) } });
});
afterAll(() => t.close());

type Rows = Array<Record<string, string>>;
const get = async (path: string) => {
  const res = await t.http("GET", path, { token: t.world.tokens.staff });
  expect(res.status, res.text).toBe(200);
  return res.body as Rows;
};
const field = (key: string) => (rows: Rows) => rows.map((r) => r[key]).sort();
const usernames = field("username");
const names = field("name");
const uuids = field("uuid");

describe("exact, case-insensitive: /api/users/?email=", () => {
  const CASES: Array<[string, string[]]> = [
    ["%25", []],
    ["%5C", []],
    ["_%25", []],
    ["staff%40example.or_", []],
    ["back%5C%5Cslash%40example.org", []],
    ["STAFF%40example.ORG", ["staff"]],
    ["100%25%40example.org", ["percent"]],
    ["back%5Cslash%40EXAMPLE.org", ["backslash"]],
  ];
  for (const [value, expected] of CASES) {
    it(`email=${value} → ${JSON.stringify(expected)}`, async () => {
      expect(usernames(await get(`/api/users/?email=${value}&page_size=300`))).toEqual(expected);
    });
  }
});

describe("every other case-insensitive filter", () => {
  const CASES: Array<[string, (rows: Rows) => string[], string[]]> = [
    ["/api/customers/?name=%25", names, ["50% Off Ltd"]],
    ["/api/customers/?name=_", names, ["Under_score"]],
    ["/api/customers/?name=%5C", names, ["Back\\slash"]],
    ["/api/customers/?name=K%5CS", names, ["Back\\slash"]],
    ["/api/customers/?name=ORG", names, ["Consumer Org", "Provider Org"]],
    ["/api/users/?query=%25", usernames, ["percent"]],
    ["/api/users/?query=t_f", usernames, []],
    ["/api/users/?query=R_CENT", usernames, ["percent"]],
    ["/api/projects/?name=%25", names, []],
    ["/api/marketplace-provider-offerings/?name=%25", names, []],
    ["/api/events/?message=%25", field("message"), ["Customer 50% Off Ltd has been created."]],
    ["/api/marketplace-provider-resources/?name=%25", names, ["10% used"]],
    ["/api/marketplace-provider-resources/?name=%5C", names, []],
    ["/api/marketplace-orders/?resource_name=%25", uuids, []],
    ["/api/marketplace-offering-users/?user_username=%25", uuids, []],
    ["/api/marketplace-offering-users/?user_username=MEMBER_", uuids, []],
    ["/api/marketplace-offering-users/?query=%25", uuids, []],
    ["/api/marketplace-offering-users/?query=%5C", uuids, []],
    ["/api/admin-announcements/?description=%25", uuids, []],
  ];
  for (const [path, pick, expected] of CASES) {
    it(`${path} → ${JSON.stringify(expected)}`, async () => {
      expect(pick(await get(`${path}&page_size=300`))).toEqual(expected);
    });
  }

  it("the same filters still match ordinary text, in any case", async () => {
    expect(names(await get("/api/marketplace-provider-resources/?name=10%25 USED&page_size=300"))).toEqual(["10% used"]);
    expect((await get("/api/marketplace-offering-users/?user_username=MEMBER1&page_size=300")).length).toBe(1);
    expect((await get("/api/marketplace-offering-users/?query=PLAIN&page_size=300")).length).toBe(1);
    expect((await get("/api/marketplace-orders/?resource_name=RESOURCE-&page_size=300")).length).toBe(1);
    expect((await get("/api/admin-announcements/?description=plain NEWS&page_size=300")).length).toBe(1);
  });
});
