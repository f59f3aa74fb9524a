import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { makeResource } from "../../test/support/order-fixtures.ts";
import { billingPeriodOf, dateOnly } from "./amounts.ts";

let t: TestApp;
let limited: { id: string };
beforeAll(async () => {
  t = await startTestApp();
  limited = await t.app.deps.db.offering.create({
    data: {
      customerId: t.world.provider.id, name: "Limited", type: "Marketplace.Slurm", state: "ACTIVE",
      components: {
        create: [
          { type: "gpu", name: "GPU", billingType: "LIMIT", limitPeriod: "month", limitAmount: 10 },
          { type: "storage", name: "Storage", billingType: "USAGE", limitPeriod: "total", limitAmount: 100 },
          { type: "license", name: "Licence", billingType: "FIXED" },
        ],
      },
    },
  });
});
afterAll(() => t.close());

const thisMonth = () => dateOnly(billingPeriodOf(new Date()));
const setUsage = (body: Record<string, unknown>, token = t.world.tokens.providerOwner) =>
  t.http("POST", "/api/marketplace-component-usages/set_usage/", { token, body });
const usagesOf = async (resourceUuid: string, period = thisMonth()) =>
  (await t.http("GET", `/api/marketplace-component-usages/?resource_uuid=${resourceUuid}&billing_period=${period}&o=usage`, { token: t.world.tokens.providerOwner })).body;

describe("set_usage", () => {
  it("201 with no body; an upsert per component and month that replaces, and current_usages follows", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const first = await setUsage({ resource: resource.id, usages: [{ type: "cpu", amount: "12.34", description: "march" }, { type: "ram", amount: 5 }] });
    expect(first.status).toBe(201);
    expect(first.text).toBe("");
    expect(await usagesOf(resource.uuid)).toMatchObject([
      { type: "ram", usage: 5, billing_period: thisMonth(), resource_uuid: resource.uuid, recurring: false },
      { type: "cpu", usage: 12.34, description: "march", offering_uuid: t.world.offering.uuid, project_uuid: t.world.project.uuid },
    ]);
    expect((await setUsage({ resource: resource.uuid, usages: [{ type: "cpu", amount: "6.40" }] })).status).toBe(201);
    const again = await usagesOf(resource.uuid);
    expect(again).toHaveLength(2);
    expect(again.map((u: { usage: number }) => u.usage)).toEqual([5, 6.4]);
    const got = await t.http("GET", `/api/marketplace-provider-resources/${resource.uuid}/`, { token: t.world.tokens.providerOwner });
    expect(got.body.current_usages).toEqual({ cpu: 6.4, ram: 5 });
  });

  it("a component reported twice in one call takes its last report", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const res = await setUsage({ resource: resource.uuid, usages: [{ type: "cpu", amount: 1, description: "first" }, { type: "ram", amount: 2 }, { type: "cpu", amount: 3, description: "last" }] });
    expect(res.status).toBe(201);
    expect(await usagesOf(resource.uuid)).toMatchObject([{ type: "ram", usage: 2 }, { type: "cpu", usage: 3, description: "last" }]);
    const got = await t.http("GET", `/api/marketplace-provider-resources/${resource.uuid}/`, { token: t.world.tokens.providerOwner });
    expect(got.body.current_usages).toEqual({ cpu: 3, ram: 2 });
  });

  it("a date reports into that month", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const res = await setUsage({ resource: resource.uuid, usages: [{ type: "cpu", amount: 1 }], date: "2026-01-15T10:00:00+00:00" });
    expect(res.status).toBe(201);
    expect(await usagesOf(resource.uuid, "2026-01-01")).toMatchObject([{ type: "cpu", usage: 1, billing_period: "2026-01-01" }]);
    expect(await usagesOf(resource.uuid)).toEqual([]);
  });

  const invalidCases: Array<[string, (r: { uuid: string }) => Record<string, unknown>, unknown]> = [
    ["neither resource nor plan period", () => ({ usages: [] }), { non_field_errors: ["Either plan_period or resource should be provided."] }],
    ["an unknown plan period", () => ({ plan_period: "0".repeat(32), usages: [] }), { plan_period: [`Object with uuid=${"0".repeat(32)} does not exist.`] }],
    ["an unknown resource", () => ({ resource: "1".repeat(32), usages: [] }), { resource: [`Object with uuid=${"1".repeat(32)} does not exist.`] }],
    ["no usages", (r) => ({ resource: r.uuid }), { usages: ["This field is required."] }],
    ["an amount that is not a number", (r) => ({ resource: r.uuid, usages: [{ type: "cpu", amount: "abc" }] }), { usages: ["Item 1: amount: A valid number is required."] }],
    ["three decimal places", (r) => ({ resource: r.uuid, usages: [{ type: "cpu", amount: 1.234 }] }), { usages: ["Item 1: amount: Ensure that there are no more than 2 decimal places."] }],
    ["a missing type", (r) => ({ resource: r.uuid, usages: [{ amount: 1 }] }), { usages: ["Item 1: type: This field is required."] }],
    ["unknown components", (r) => ({ resource: r.uuid, usages: [{ type: "gpu", amount: 1 }, { type: "disk", amount: 1 }] }), { non_field_errors: ["These components are invalid: gpu, disk."] }],
  ];
  for (const [name, body, errors] of invalidCases) {
    it(`${name} → 400`, async () => {
      const resource = await makeResource(t.app.deps.db, t.world, "OK");
      const res = await setUsage(body(resource));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
    });
  }

  for (const state of ["CREATING", "ERRED", "TERMINATED"] as const) {
    it(`a resource in ${state} → 400`, async () => {
      const resource = await makeResource(t.app.deps.db, t.world, state);
      const res = await setUsage({ resource: resource.uuid, usages: [{ type: "cpu", amount: 1 }] });
      expect(res.body).toEqual({ resource: ["Resource is not in valid state."] });
    });
  }
  for (const state of ["UPDATING", "TERMINATING"] as const) {
    it(`a resource in ${state} accepts usage`, async () => {
      const resource = await makeResource(t.app.deps.db, t.world, state);
      expect((await setUsage({ resource: resource.uuid, usages: [{ type: "cpu", amount: 1 }] })).status).toBe(201);
    });
  }

  it("fixed components are refused; limits hold per their period", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK", { offeringId: limited.id });
    expect((await setUsage({ resource: resource.uuid, usages: [{ type: "license", amount: 1 }] })).body).toEqual({
      non_field_errors: ["These components are invalid: license."],
    });
    expect((await setUsage({ resource: resource.uuid, usages: [{ type: "gpu", amount: 10 }] })).status).toBe(201);
    expect((await setUsage({ resource: resource.uuid, usages: [{ type: "gpu", amount: 9 }] })).status).toBe(201);
    expect((await setUsage({ resource: resource.uuid, usages: [{ type: "gpu", amount: "10.5" }] })).body).toEqual({
      non_field_errors: ["Total amount exceeds limit. Total amount: 10.50, limit: 10."],
    });
    expect((await setUsage({ resource: resource.uuid, usages: [{ type: "storage", amount: 60 }], date: "2025-01-10T00:00:00Z" })).status).toBe(201);
    expect((await setUsage({ resource: resource.uuid, usages: [{ type: "storage", amount: 41 }] })).body).toEqual({
      non_field_errors: ["Total amount exceeds limit. Total amount: 101.00, limit: 100."],
    });
    expect((await setUsage({ resource: resource.uuid, usages: [{ type: "storage", amount: 40 }] })).status).toBe(201);
  });

  const STATUS: Array<[string, number]> = [
    ["staff", 201], ["providerOwner", 201], ["providerManager", 201], ["offeringManager", 201],
    ["providerSupport", 403], ["support", 403], ["projectAdmin", 403], ["projectMember", 403], ["unrelated", 403],
  ];
  for (const [persona, status] of STATUS) {
    it(`set_usage by ${persona} → ${status}`, async () => {
      const resource = await makeResource(t.app.deps.db, t.world, "OK");
      const token = t.world.tokens[persona as keyof typeof t.world.tokens];
      expect((await setUsage({ resource: resource.uuid, usages: [{ type: "cpu", amount: 1 }] }, token)).status).toBe(status);
      expect(await t.app.deps.db.componentUsage.count({ where: { resourceId: resource.id } })).toBe(status === 201 ? 1 : 0);
    });
  }

  it("an invalid payload is 400 before the permission check", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const res = await setUsage({ resource: resource.uuid, usages: [{ type: "nope", amount: 1 }] }, t.world.tokens.unrelated);
    expect(res.status).toBe(400);
  });
});

describe("setComponentUsage over GraphQL names its arguments", () => {
  const SET = `mutation($r: ID, $p: ID, $usages: [UsageReportInput!]!) {
    setComponentUsage(input: { resourceUuid: $r, planPeriodUuid: $p, usages: $usages }) { ... on SetComponentUsagePayload { __typename } ${failuresOf("setComponentUsage")} } }`;
  const CPU = [{ type: "cpu", amount: "1" }];
  const cases: Array<[string, (r: { uuid: string }) => Record<string, unknown>, Record<string, string[]>]> = [
    ["neither resource nor plan period", () => ({ usages: CPU }), { input: ["Either plan_period or resource should be provided."] }],
    ["an unknown plan period", () => ({ p: "0".repeat(32), usages: CPU }), { planPeriodUuid: [`Object with uuid=${"0".repeat(32)} does not exist.`] }],
    ["an unknown resource", () => ({ r: "1".repeat(32), usages: CPU }), { resourceUuid: [`Object with uuid=${"1".repeat(32)} does not exist.`] }],
    ["unknown components", (r) => ({ r: r.uuid, usages: [{ type: "gpu", amount: "1" }] }), { input: ["These components are invalid: gpu."] }],
    ["an amount that is not a number", (r) => ({ r: r.uuid, usages: [{ type: "cpu", amount: "abc" }] }), { usages: ["Item 1: amount: A valid number is required."] }],
  ];
  for (const [name, variables, fields] of cases) {
    it(`${name} → VALIDATION naming ${Object.keys(fields).join(", ")}`, async () => {
      const resource = await makeResource(t.app.deps.db, t.world, "OK");
      const result = (await t.gql(SET, variables(resource), t.world.tokens.providerOwner)).data.setComponentUsage;
      expect(result).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
      expect(fieldsOf(result)).toEqual(fields);
    });
  }
});
