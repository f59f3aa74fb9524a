import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { makeOffering, makeResource } from "../../test/support/order-fixtures.ts";
import { toHex } from "../platform/ids.ts";

const USAGES = "/api/marketplace-component-usages/";
const USER_USAGES = "/api/marketplace-component-user-usages/";
type UsageKey = "u1" | "u2" | "u3";
type UserUsageKey = "uu1" | "uu2" | "uu3";

let t: TestApp;
let staff: string;
const ids = {} as Record<UsageKey | UserUsageKey, string>;
const usageIds = {} as Record<UsageKey, string>;
const ref = {} as { r1: string; r2: string; o2: string; p2: string; c2: string };

/**
 * Three component usages over two resources (R1 of the world's offering and project, R2 of another offering, project
 * and organisation), each with one user usage whose own date lies after every component usage's date.
 */
const USAGE_ROWS: Array<{ key: UsageKey; resource: "r1" | "r2"; type: string; period: string; date: string; usage: number; recurring: boolean }> = [
  { key: "u1", resource: "r1", type: "cpu", period: "2024-03-01", date: "2024-03-10T12:00:00Z", usage: 5, recurring: false },
  { key: "u2", resource: "r1", type: "ram", period: "2024-04-01", date: "2024-04-15T23:30:00Z", usage: 7, recurring: true },
  { key: "u3", resource: "r2", type: "cpu", period: "2023-04-01", date: "2023-04-02T00:00:00Z", usage: 3, recurring: false },
];
const USER_USAGE_ROWS: Array<{ key: UserUsageKey; of: UsageKey; username: string; usage: number }> = [
  { key: "uu1", of: "u1", username: "hpc_alice", usage: 2 },
  { key: "uu2", of: "u2", username: "bob", usage: 4 },
  { key: "uu3", of: "u3", username: "ALICE_old", usage: 1 },
];

beforeAll(async () => {
  t = await startTestApp();
  staff = t.world.tokens.staff;
  const db = t.app.deps.db;
  const c2 = await db.customer.create({ data: { name: "Second Org" } });
  const p2 = await db.project.create({ data: { customerId: c2.id, name: "Second project" } });
  const o2 = await makeOffering(db, t.world, "Marketplace.Basic");
  const resources = { r1: await makeResource(db, t.world, "OK"), r2: await makeResource(db, t.world, "OK", { offeringId: o2.id, projectId: p2.id }) };
  Object.assign(ref, { r1: resources.r1.uuid, r2: resources.r2.uuid, o2: o2.uuid, p2: toHex(p2.id), c2: toHex(c2.id) });
  const offeringUser = await t.world.offeringUser("OK", { username: "hpc_alice" });
  for (const row of USAGE_ROWS) {
    const resource = await db.resource.findUniqueOrThrow({ where: { id: resources[row.resource].id }, select: { id: true, offeringId: true } });
    const component = await db.offeringComponent.findFirstOrThrow({ where: { offeringId: resource.offeringId, type: row.type } });
    const usage = await db.componentUsage.create({
      data: {
        resourceId: resource.id, componentId: component.id, billingPeriod: new Date(row.period), date: new Date(row.date),
        usage: row.usage, recurring: row.recurring, description: `report ${row.key}`, modifiedById: t.world.users.providerOwner.id,
      },
    });
    usageIds[row.key] = usage.id;
    ids[row.key] = toHex(usage.id);
  }
  for (const row of USER_USAGE_ROWS) {
    const userUsage = await db.componentUserUsage.create({
      data: {
        componentUsageId: usageIds[row.of], username: row.username, usage: row.usage,
        date: new Date("2025-01-01T00:00:00Z"), offeringUserId: row.key === "uu1" ? offeringUser.id : null,
      },
    });
    ids[row.key] = toHex(userUsage.id);
  }
});
afterAll(() => t.close());

const keyOf = (uuid: string) => (Object.keys(ids) as Array<keyof typeof ids>).find((key) => ids[key] === uuid) ?? uuid;
const resourceUrl = (uuid: string, collection = "marketplace-provider-resources") => encodeURIComponent(`${t.baseUrl}/api/${collection}/${uuid}/`);

/** The rows a staff list returns for `query`, as their keys in response order. */
async function list(base: string, query: string) {
  const res = await t.http("GET", `${base}?${query}`, { token: staff });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.body as Array<{ uuid: string }>).map((row) => keyOf(row.uuid));
}

describe("component usage filters and orderings (default order: newest report first)", () => {
  const cases: Array<[string, () => string, UsageKey[]]> = [
    ["no filter", () => "", ["u2", "u1", "u3"]],
    ["resource (URL)", () => `resource=${resourceUrl(ref.r1)}`, ["u2", "u1"]],
    ["resource (consumer-side URL)", () => `resource=${resourceUrl(ref.r2, "marketplace-resources")}`, ["u3"]],
    ["resource_uuid", () => `resource_uuid=${ref.r2}`, ["u3"]],
    ["offering_uuid", () => `offering_uuid=${ref.o2}`, ["u3"]],
    ["project_uuid", () => `project_uuid=${ref.p2}`, ["u3"]],
    ["customer_uuid", () => `customer_uuid=${t.world.consumer.uuid}`, ["u2", "u1"]],
    ["type", () => "type=ram", ["u2"]],
    ["billing_period", () => "billing_period=2024-03-01", ["u1"]],
    ["billing_period not a period's first day", () => "billing_period=2024-03-02", []],
    ["billing_period_year", () => "billing_period_year=2024", ["u2", "u1"]],
    ["billing_period_month, any year", () => "billing_period_month=4", ["u2", "u3"]],
    ["billing_period_year and _month", () => "billing_period_year=2024&billing_period_month=4", ["u2"]],
    ["date_after: the whole day counts", () => "date_after=2024-03-10", ["u2", "u1"]],
    ["date_before: the whole day counts", () => "date_before=2024-03-10", ["u1", "u3"]],
    ["date_before, late in the day", () => "date_before=2024-04-15", ["u2", "u1", "u3"]],
    ["missing_usage_policy=reuse (recurring)", () => "missing_usage_policy=reuse", ["u2"]],
    ["missing_usage_policy=none", () => "missing_usage_policy=none", ["u1", "u3"]],
    ["missing_usage_policy=zero (never reported)", () => "missing_usage_policy=zero", []],
    ["missing_usage_policy repeated", () => "missing_usage_policy=zero&missing_usage_policy=reuse", ["u2"]],
    ["o=usage", () => "o=usage", ["u3", "u1", "u2"]],
    ["o=-usage", () => "o=-usage", ["u2", "u1", "u3"]],
    ["o=billing_period", () => "o=billing_period", ["u3", "u1", "u2"]],
    ["o=missing_usage_policy (none before reuse)", () => "o=missing_usage_policy", ["u1", "u3", "u2"]],
    ["o=-missing_usage_policy", () => "o=-missing_usage_policy", ["u2", "u1", "u3"]],
  ];
  for (const [name, query, expected] of cases) it(name, async () => expect(await list(USAGES, query())).toEqual(expected));

  it("an unknown missing_usage_policy or out-of-range month is a 400 naming the parameter", async () => {
    const bad = async (query: string) => (await t.http("GET", `${USAGES}?${query}`, { token: staff })).body;
    expect(await bad("missing_usage_policy=sometimes")).toEqual({ missing_usage_policy: ["Select a valid choice. sometimes is not one of the available choices."] });
    expect(await bad("billing_period_month=13")).toEqual({ billing_period_month: ["Enter a whole number."] });
  });

  it("over GraphQL", async () => {
    const result = await t.gql(
      `query($f: ComponentUsageFilter) { componentUsages(filter: $f, orderBy: [USAGE_ASC]) { nodes { uuid missingUsagePolicy } } }`,
      { f: { missingUsagePolicy: ["NONE"], dateBefore: "2024-03-10T00:00:00Z", billingPeriodMonth: 3 } },
      staff,
    );
    expect(result).toEqual({ data: { componentUsages: { nodes: [{ uuid: ids.u1, missingUsagePolicy: "NONE" }] } } });
  });
});

describe("component user usage filters and orderings (default order: newest component usage first)", () => {
  const cases: Array<[string, () => string, UserUsageKey[]]> = [
    ["no filter", () => "", ["uu2", "uu1", "uu3"]],
    ["resource (URL)", () => `resource=${resourceUrl(ref.r1)}`, ["uu2", "uu1"]],
    ["resource_uuid", () => `resource_uuid=${ref.r2}`, ["uu3"]],
    ["offering_uuid", () => `offering_uuid=${ref.o2}`, ["uu3"]],
    ["project_uuid", () => `project_uuid=${ref.p2}`, ["uu3"]],
    ["customer_uuid", () => `customer_uuid=${ref.c2}`, ["uu3"]],
    ["type", () => "type=cpu", ["uu1", "uu3"]],
    ["component_usage__billing_period", () => "component_usage__billing_period=2024-04-01", ["uu2"]],
    ["billing_period_year", () => "billing_period_year=2023", ["uu3"]],
    ["billing_period_month", () => "billing_period_month=3", ["uu1"]],
    ["date_after: the component usage's date", () => "date_after=2024-03-10", ["uu2", "uu1"]],
    ["date_before: the component usage's date", () => "date_before=2023-04-02", ["uu3"]],
    ["username contains, case-insensitive", () => "username=alice", ["uu1", "uu3"]],
    ["o=username", () => "o=username", ["uu3", "uu2", "uu1"]],
    ["o=-usage", () => "o=-usage", ["uu2", "uu1", "uu3"]],
    ["o=component_usage__billing_period", () => "o=component_usage__billing_period", ["uu3", "uu1", "uu2"]],
  ];
  for (const [name, query, expected] of cases) it(name, async () => expect(await list(USER_USAGES, query())).toEqual(expected));

  it("over GraphQL", async () => {
    const result = await t.gql(
      `query($f: ComponentUserUsageFilter) { componentUserUsages(filter: $f) { nodes { uuid } } }`,
      { f: { username: "ALICE", customerUuid: [t.world.consumer.uuid] } },
      staff,
    );
    expect(result).toEqual({ data: { componentUserUsages: { nodes: [{ uuid: ids.uu1 }] } } });
  });
});

describe("responses parse with Waldur's client models", () => {
  it("component usages: list and retrieve", async () => {
    const listed = await t.http("GET", USAGES, { token: staff });
    expect(responseProblems(waldurOperation("GET", "/api/marketplace-component-usages/")!, listed.body)).toEqual([]);
    expect(listed.body.map((u: { missing_usage_policy: string }) => u.missing_usage_policy)).toEqual(["reuse", "none", "none"]);
    const one = await t.http("GET", `${USAGES}${ids.u1}/`, { token: staff });
    expect(responseProblems(waldurOperation("GET", "/api/marketplace-component-usages/:uuid/")!, one.body)).toEqual([]);
  });

  it("component user usages: list and retrieve; `user` is empty, not null, without an offering user; `date` is the component usage's", async () => {
    const listed = await t.http("GET", USER_USAGES, { token: staff });
    expect(responseProblems(waldurOperation("GET", "/api/marketplace-component-user-usages/")!, listed.body)).toEqual([]);
    const [uu2, uu1] = listed.body;
    expect(uu2).toMatchObject({ user: "", backend_id: "", billing_period: "2024-04-01" });
    expect(Date.parse(uu2.date)).toBe(Date.parse("2024-04-15T23:30:00Z"));
    expect(uu1.user).toMatch(/\/api\/marketplace-offering-users\/[0-9a-f]{32}\/$/);
    const one = await t.http("GET", `${USER_USAGES}${ids.uu2}/`, { token: staff });
    expect(responseProblems(waldurOperation("GET", "/api/marketplace-component-user-usages/:uuid/")!, one.body)).toEqual([]);
  });
});
