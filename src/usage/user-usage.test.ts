import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { PERSONAS, type Persona } from "../../test/support/world.ts";
import { makeResource } from "../../test/support/order-fixtures.ts";
import { parseUuid } from "../platform/ids.ts";
import { billingPeriodOf, dateOnly } from "./amounts.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const owner = () => t.world.tokens.providerOwner;

/** A resource with a cpu usage reported this month; returns the component usage's uuid. */
async function reported(amount: number | string = 0) {
  const resource = await makeResource(t.app.deps.db, t.world, "OK");
  const res = await t.http("POST", "/api/marketplace-component-usages/set_usage/", {
    token: owner(),
    body: { resource: resource.uuid, usages: [{ type: "cpu", amount }] },
  });
  expect(res.status).toBe(201);
  const [usage] = (await t.http("GET", `/api/marketplace-component-usages/?resource_uuid=${resource.uuid}`, { token: owner() })).body;
  return { resource, usage: usage as { uuid: string; usage: number } };
}

const userUsages = async (query: string) =>
  (await t.http("GET", `/api/marketplace-component-user-usages/?${query}&o=username`, { token: owner() })).body as Array<Record<string, unknown>>;

describe("set_user_usage and set_user_usages", () => {
  it("set_user_usage: 201, an upsert per username, linked to the offering user when given", async () => {
    const { resource, usage } = await reported(100);
    const ou = await t.world.offeringUser("OK", { username: "alice_hpc" });
    const path = `/api/marketplace-component-usages/${usage.uuid}/set_user_usage/`;
    const user = `http://testserver/api/marketplace-offering-users/${ou.uuid}/`;
    const first = await t.http("POST", path, { token: owner(), body: { username: "alice_hpc", usage: 12.5, user } });
    expect(first.status).toBe(201);
    expect(first.text).toBe("");
    expect((await t.http("POST", path, { token: owner(), body: { username: "alice_hpc", usage: "20.25" } })).status).toBe(201);
    const rows = await userUsages(`resource_uuid=${resource.uuid}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      username: "alice_hpc",
      usage: 20.25,
      user: "",
      component_type: "cpu",
      billing_period: dateOnly(billingPeriodOf(new Date())),
      component_usage: `${t.baseUrl}/api/marketplace-component-usages/${usage.uuid}/`,
      resource_uuid: resource.uuid,
    });
  });

  it("set_user_usages (dashed uuid in the path): all items at once; the total of a zero usage becomes their sum", async () => {
    const { resource, usage } = await reported(0);
    const res = await t.http("POST", `/api/marketplace-component-usages/${parseUuid(usage.uuid)}/set_user_usages/`, {
      token: owner(),
      body: { usages: [{ username: "u1", usage: 50.0 }, { username: "u2", usage: "75.5" }] },
    });
    expect(res.status).toBe(201);
    expect((await userUsages(`resource_uuid=${resource.uuid}`)).map((r) => [r.username, r.usage])).toEqual([["u1", 50], ["u2", 75.5]]);
    expect((await userUsages(`username=u2&resource_uuid=${resource.uuid}`)).map((r) => r.username)).toEqual(["u2"]);
    const total = await t.http("GET", `/api/marketplace-component-usages/${usage.uuid}/`, { token: owner() });
    expect(total.body.usage).toBe(125.5);
  });

  it("a dated item goes to that month's usage, created for the backfill", async () => {
    const { resource, usage } = await reported(3);
    const res = await t.http("POST", `/api/marketplace-component-usages/${usage.uuid}/set_user_usages/`, {
      token: owner(),
      body: { usages: [{ username: "old", usage: 30, date: "2025-05-15T10:00:00Z" }, { username: "new", usage: 1 }] },
    });
    expect(res.status).toBe(201);
    const may = (await t.http("GET", `/api/marketplace-component-usages/?resource_uuid=${resource.uuid}&billing_period=2025-05-01`, { token: owner() })).body;
    expect(may).toMatchObject([{ description: "Created for user usage backfill", usage: 30 }]);
    expect((await userUsages(`resource_uuid=${resource.uuid}&component_usage__billing_period=2025-05-01`)).map((r) => r.username)).toEqual(["old"]);
    expect((await t.http("GET", `/api/marketplace-component-usages/${usage.uuid}/`, { token: owner() })).body.usage).toBe(3);
  });

  const invalid: Array<[string, unknown, unknown]> = [
    ["an empty list", { usages: [] }, { usages: ["This list may not be empty."] }],
    ["no list", {}, { usages: ["This field is required."] }],
    ["one bad item", { usages: [{ username: "ok", usage: 1 }, { username: "bad", usage: "x" }] }, { usages: ["Item 2: usage: A valid number is required."] }],
    ["an unknown offering user", { usages: [{ username: "x", usage: 1, user: "0".repeat(32) }] }, { user: ["Invalid hyperlink - Object does not exist."] }],
  ];
  for (const [name, body, errors] of invalid) {
    it(`set_user_usages with ${name} → 400, nothing stored`, async () => {
      const { usage } = await reported(1);
      const res = await t.http("POST", `/api/marketplace-component-usages/${usage.uuid}/set_user_usages/`, { token: owner(), body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await t.app.deps.db.componentUserUsage.count({ where: { componentUsageId: parseUuid(usage.uuid)! } })).toBe(0);
    });
  }

  it("set_user_usage needs username and usage", async () => {
    const { usage } = await reported(1);
    const res = await t.http("POST", `/api/marketplace-component-usages/${usage.uuid}/set_user_usage/`, { token: owner(), body: { usage: "1.234" } });
    expect(res.body).toEqual({ username: ["This field is required."], usage: ["Ensure that there are no more than 2 decimal places."] });
  });
});

describe("setComponentUserUsages over GraphQL", () => {
  it("an unknown offering user names the item's offeringUserUuid", async () => {
    const { usage } = await reported(1);
    const result = await t.gql(
      `mutation($u: ID!) {
        setComponentUserUsages(input: { componentUsageUuid: $u, usages: [{ username: "x", usage: "1", offeringUserUuid: "${"0".repeat(32)}" }] }) {
          ... on SetComponentUserUsagesPayload { componentUserUsages { uuid } } ${failuresOf("setComponentUserUsages")} } }`,
      { u: usage.uuid },
      owner(),
    );
    expect(result.data.setComponentUserUsages).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(result.data.setComponentUserUsages)).toEqual({ offeringUserUuid: ["Object does not exist."] });
  });

  it("REST's set_user_usage answers it as `user`, an invalid hyperlink, too", async () => {
    const { usage } = await reported(1);
    const res = await t.http("POST", `/api/marketplace-component-usages/${usage.uuid}/set_user_usage/`, {
      token: owner(),
      body: { username: "x", usage: 1, user: "0".repeat(32) },
    });
    expect(res).toMatchObject({ status: 400, body: { user: ["Invalid hyperlink - Object does not exist."] } });
  });
});

describe("visibility and permissions", () => {
  const SEES: Record<Persona, boolean> = {
    staff: true, support: true, providerOwner: true, providerManager: true, providerSupport: true, offeringManager: true,
    projectAdmin: true, projectManager: true, projectMember: true, unrelated: false,
  };
  const SETS_USER_USAGE: Partial<Record<Persona, number>> = {
    staff: 201, providerOwner: 201, providerManager: 201, offeringManager: 201, projectAdmin: 403, support: 403, unrelated: 404,
  };

  for (const persona of PERSONAS) {
    it(`${persona}: ${SEES[persona] ? "sees" : "does not see"} usages${SETS_USER_USAGE[persona] ? `, set_user_usage → ${SETS_USER_USAGE[persona]}` : ""}`, async () => {
      const { resource, usage } = await reported(2);
      await t.http("POST", `/api/marketplace-component-usages/${usage.uuid}/set_user_usage/`, { token: owner(), body: { username: "seen", usage: 1 } });
      const token = t.world.tokens[persona];
      const list = await t.http("GET", `/api/marketplace-component-usages/?resource_uuid=${resource.uuid}`, { token });
      expect(list.body).toHaveLength(SEES[persona] ? 1 : 0);
      const one = await t.http("GET", `/api/marketplace-component-usages/${usage.uuid}/`, { token });
      expect(one.status).toBe(SEES[persona] ? 200 : 404);
      const users = await t.http("GET", `/api/marketplace-component-user-usages/?resource_uuid=${resource.uuid}`, { token });
      expect(users.body).toHaveLength(SEES[persona] ? 1 : 0);
      const expected = SETS_USER_USAGE[persona];
      if (expected) {
        const res = await t.http("POST", `/api/marketplace-component-usages/${usage.uuid}/set_user_usage/`, { token, body: { username: "x", usage: 1 } });
        expect(res.status).toBe(expected);
      }
    });
  }
});

describe("filters", () => {
  it("type, billing period year and month, project and customer", async () => {
    const { resource } = await reported(4);
    const base = `resource_uuid=${resource.uuid}`;
    const count = async (query: string) => ((await t.http("GET", `/api/marketplace-component-usages/?${base}&${query}`, { token: owner() })).body as unknown[]).length;
    const now = new Date();
    expect(await count("type=cpu")).toBe(1);
    expect(await count("type=ram")).toBe(0);
    expect(await count(`billing_period_year=${now.getUTCFullYear()}&billing_period_month=${now.getUTCMonth() + 1}`)).toBe(1);
    expect(await count(`billing_period_year=${now.getUTCFullYear() - 1}`)).toBe(0);
    expect(await count(`project_uuid=${t.world.project.uuid}&customer_uuid=${t.world.consumer.uuid}&offering_uuid=${t.world.offering.uuid}`)).toBe(1);
    expect((await t.http("GET", "/api/marketplace-component-usages/?resource_uuid=nope", { token: owner() })).body).toEqual({
      resource_uuid: ["Enter a valid UUID."],
    });
  });

  it("years 1–99 are those years, not 19xx: reports dated in year 24 and in 1924 stay apart", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const report = async (date: string, amount: number) =>
      (await t.http("POST", "/api/marketplace-component-usages/set_usage/", { token: owner(), body: { resource: resource.uuid, date, usages: [{ type: "cpu", amount }] } })).status;
    expect(await report("0024-03-15T12:00:00Z", 24)).toBe(201);
    expect(await report("1924-03-15T12:00:00Z", 1924)).toBe(201);
    const list = async (query: string) =>
      ((await t.http("GET", `/api/marketplace-component-usages/?resource_uuid=${resource.uuid}&${query}`, { token: owner() })).body as Array<{ usage: number; billing_period: string }>)
        .map((u) => [u.billing_period, u.usage])
        .sort();
    expect(await list("")).toEqual([["0024-03-01", 24], ["1924-03-01", 1924]]);
    expect(await list("billing_period_year=24")).toEqual([["0024-03-01", 24]]);
    expect(await list("billing_period_year=24&billing_period_month=3")).toEqual([["0024-03-01", 24]]);
    expect(await list("billing_period_year=24&billing_period_month=4")).toEqual([]);
    expect(await list("billing_period_year=1924")).toEqual([["1924-03-01", 1924]]);
    expect(await list("billing_period_year=1924&billing_period_month=3")).toEqual([["1924-03-01", 1924]]);
    expect(await list("billing_period_year=1")).toEqual([]);
    expect(await list("billing_period_year=99")).toEqual([]);
    const gql = await t.gql(
      `query($filter: ComponentUsageFilter) { componentUsages(filter: $filter) { nodes { billingPeriod } } }`,
      { filter: { resourceUuid: [resource.uuid], billingPeriodYear: 24 } },
      owner(),
    );
    expect(gql).toEqual({ data: { componentUsages: { nodes: [{ billingPeriod: "0024-03-01" }] } } });
  });
});
