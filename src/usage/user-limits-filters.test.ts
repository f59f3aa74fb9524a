import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { makeOffering, makeResource } from "../../test/support/order-fixtures.ts";
import { toHex } from "../platform/ids.ts";

const BASE = "/api/component-user-usage-limits/";
type Key = "l1" | "l2" | "l3";

let t: TestApp;
let staff: string;
const ids = {} as Record<Key, string>;
const ref = {} as { r1: string; r2: string; o2: string; alice: string; bob: string; cpu: string; otherCpu: string };

/** Three limits: alice's cpu and bob's ram on R1 (the world's offering), alice's cpu on R2 (another offering). */
beforeAll(async () => {
  t = await startTestApp();
  staff = t.world.tokens.staff;
  const db = t.app.deps.db;
  const o2 = await makeOffering(db, t.world, "Marketplace.Basic");
  const r1 = await makeResource(db, t.world, "OK");
  const r2 = await makeResource(db, t.world, "OK", { offeringId: o2.id });
  const alice = await db.user.create({ data: { username: "lim_alice" } });
  const bob = await db.user.create({ data: { username: "lim_bob" } });
  const component = (offeringId: string, type: string) => db.offeringComponent.findFirstOrThrow({ where: { offeringId, type } });
  const cpu = await component(t.world.offering.id, "cpu");
  const otherCpu = await component(o2.id, "cpu");
  Object.assign(ref, { r1: r1.uuid, r2: r2.uuid, o2: o2.uuid, alice: toHex(alice.id), bob: toHex(bob.id), cpu: toHex(cpu.id), otherCpu: toHex(otherCpu.id) });
  const rows: Array<[Key, string, string, string, number]> = [
    ["l1", r1.id, cpu.id, alice.id, 10],
    ["l2", r1.id, (await component(t.world.offering.id, "ram")).id, bob.id, 20],
    ["l3", r2.id, otherCpu.id, alice.id, 30],
  ];
  for (const [index, [key, resourceId, componentId, userId, limit]] of rows.entries()) {
    const created = new Date(Date.UTC(2024, index, 1));
    ids[key] = toHex((await db.componentUserUsageLimit.create({ data: { resourceId, componentId, userId, limit, created, modified: created } })).id);
  }
});
afterAll(() => t.close());

const keyOf = (uuid: string) => (Object.keys(ids) as Key[]).find((key) => ids[key] === uuid) ?? uuid;
const url = (collection: string, uuid: string) => `${t.baseUrl}/api/${collection}/${uuid}/`;

async function list(query: string) {
  const res = await t.http("GET", `${BASE}?${query}`, { token: staff });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.body as Array<{ uuid: string }>).map((row) => keyOf(row.uuid));
}

describe("per-user limit filters (default order: created)", () => {
  const cases: Array<[string, () => string, Key[]]> = [
    ["no filter", () => "", ["l1", "l2", "l3"]],
    ["resource (URL)", () => `resource=${encodeURIComponent(url("marketplace-resources", ref.r1))}`, ["l1", "l2"]],
    ["resource_uuid", () => `resource_uuid=${ref.r2}`, ["l3"]],
    ["offering_uuid", () => `offering_uuid=${ref.o2}`, ["l3"]],
    ["component_type", () => "component_type=ram", ["l2"]],
    ["username, exact", () => "username=lim_alice", ["l1", "l3"]],
    ["username is case-sensitive", () => "username=LIM_ALICE", []],
    ["username and resource together", () => `username=lim_alice&resource_uuid=${ref.r1}`, ["l1"]],
  ];
  for (const [name, query, expected] of cases) it(name, async () => expect(await list(query())).toEqual(expected));

  it("over GraphQL", async () => {
    const result = await t.gql(`{ componentUserUsageLimits(filter: { username: "lim_bob" }) { nodes { uuid } } }`, {}, staff);
    expect(result).toEqual({ data: { componentUserUsageLimits: { nodes: [{ uuid: ids.l2 }] } } });
  });
});

describe("Waldur's client: create with `component` as a uuid, and every response parses", () => {
  const owner = () => t.world.tokens.providerOwner;
  const body = (extra: Record<string, unknown> = {}) => ({
    resource: url("marketplace-resources", ref.r1),
    component: ref.cpu.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5"),
    user: url("users", ref.bob),
    limit: "5.5",
    ...extra,
  });

  it("creates from py-client's ComponentUserUsageLimitRequest; retrieve, list and updates parse as ComponentUserUsageLimit", async () => {
    const created = await t.http("POST", BASE, { token: owner(), body: body() });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ component: ref.cpu, component_type: "cpu", user_uuid: ref.bob, resource_uuid: ref.r1, limit: "5.50" });
    expect(responseProblems(waldurOperation("POST", "/api/component-user-usage-limits/")!, created.body)).toEqual([]);
    const path = `${BASE}${created.body.uuid}/`;
    const one = await t.http("GET", path, { token: staff });
    expect(responseProblems(waldurOperation("GET", "/api/component-user-usage-limits/:uuid/")!, one.body)).toEqual([]);
    const listed = await t.http("GET", BASE, { token: staff });
    expect(listed.body).toHaveLength(4);
    expect(responseProblems(waldurOperation("GET", "/api/component-user-usage-limits/")!, listed.body)).toEqual([]);
    const put = await t.http("PUT", path, { token: owner(), body: body({ limit: "6" }) });
    expect(put).toMatchObject({ status: 200, body: { limit: "6.00" } });
    expect(responseProblems(waldurOperation("PUT", "/api/component-user-usage-limits/:uuid/")!, put.body)).toEqual([]);
    const patch = await t.http("PATCH", path, { token: owner(), body: { limit: "7" } });
    expect(responseProblems(waldurOperation("PATCH", "/api/component-user-usage-limits/:uuid/")!, patch.body)).toEqual([]);
  });

  it.each([
    ["a component of another offering", () => ({ component: ref.otherCpu }), { component: ["The component does not belong to the offering of this resource."] }],
    ["an unknown component", () => ({ component: "0".repeat(32) }), { component: [`Object with uuid=${"0".repeat(32)} does not exist.`] }],
    ["a component that is no uuid", () => ({ component: "cpu" }), { component: ["Must be a valid UUID."] }],
    ["a null component", () => ({ component: null }), { component: ["This field may not be null."] }],
  ])("400 for %s", async (_name, change, errors) => {
    const res = await t.http("POST", BASE, { token: owner(), body: body({ user: url("users", ref.alice), ...change() }) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
  });

  it("over GraphQL, by componentUuid", async () => {
    const result = await t.gql(
      `mutation($r: ID!, $c: ID!, $u: ID!) { createComponentUserUsageLimit(input: { resourceUuid: $r, componentUuid: $c, userUuid: $u, limit: "1" }) { ... on ComponentUserUsageLimit { component { type } username } } }`,
      { r: ref.r2, c: ref.otherCpu, u: ref.bob },
      t.world.tokens.providerOwner,
    );
    expect(result).toEqual({ data: { createComponentUserUsageLimit: { component: { type: "cpu" }, username: "lim_bob" } } });
  });
});
