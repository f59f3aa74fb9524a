import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { makeResource } from "../../test/support/order-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const components = await db.offeringComponent.findMany({ where: { offeringId: t.world.offering.id } });
  const cpu = components.find((component) => component.type === "cpu")!;
  const ram = components.find((component) => component.type === "ram")!;
  const report = async (resourceId: string, componentId: string, usage: number, month: number) =>
    db.componentUsage.create({ data: { resourceId, componentId, usage, date: new Date(Date.UTC(2026, month - 1, 10)), billingPeriod: new Date(Date.UTC(2026, month - 1, 1)) } });
  const [first, second] = [await makeResource(db, t.world, "OK"), await makeResource(db, t.world, "OK")];
  await report(first.id, cpu.id, 10.5, 11);
  await report(second.id, cpu.id, 4, 11);
  await report(first.id, ram.id, 2048, 11);
  await report(first.id, cpu.id, 99, 10);
});
afterAll(() => t.close());

const TOTALS = `query Totals($filter: ComponentUsageFilter) {
  componentUsageTotals(filter: $filter) { offering { name } type usage resourceCount }
}`;

it("sums a period's usage per component, counting the resources that reported it", async () => {
  const answer = await t.gql(TOTALS, { filter: { billingPeriodYear: 2026, billingPeriodMonth: 11 } }, t.world.tokens.providerOwner);
  expect(answer.errors).toBeUndefined();
  expect(answer.data.componentUsageTotals).toEqual([
    { offering: { name: "HPC" }, type: "cpu", usage: 14.5, resourceCount: 2 },
    { offering: { name: "HPC" }, type: "ram", usage: 2048, resourceCount: 1 },
  ]);
});

it("sums only what the viewer may see", async () => {
  const answer = await t.gql(TOTALS, { filter: { billingPeriodYear: 2026, billingPeriodMonth: 11 } }, t.world.tokens.unrelated);
  expect(answer.errors).toBeUndefined();
  expect(answer.data.componentUsageTotals).toEqual([]);
});

it("counts a resource that reported in several periods once", async () => {
  const answer = await t.gql(TOTALS, {}, t.world.tokens.providerOwner);
  expect(answer.errors).toBeUndefined();
  expect(answer.data.componentUsageTotals).toContainEqual({ offering: { name: "HPC" }, type: "cpu", usage: 113.5, resourceCount: 2 });
});
