import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { makeResource } from "../../test/support/order-fixtures.ts";

const COMPONENTS = 8;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it("concurrent set_usage calls for different components of one resource: current_usages keeps every one of them", async () => {
  const types = Array.from({ length: COMPONENTS }, (_, i) => `c${i}`);
  const offering = await t.app.deps.db.offering.create({
    data: {
      customerId: t.world.provider.id, name: "Many components", type: "Marketplace.Slurm", state: "ACTIVE",
      components: { create: types.map((type) => ({ type, name: type, billingType: "USAGE" as const })) },
    },
  });
  for (let round = 0; round < 3; round++) {
    const resource = await makeResource(t.app.deps.db, t.world, "OK", { offeringId: offering.id });
    const responses = await Promise.all(
      types.map((type, i) =>
        t.http("POST", "/api/marketplace-component-usages/set_usage/", {
          token: t.world.tokens.providerOwner,
          body: { resource: resource.uuid, usages: [{ type, amount: String(i + 1 + round) }] },
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(types.map(() => 201));
    const { currentUsages } = await t.app.deps.db.resource.findUniqueOrThrow({ where: { id: resource.id }, select: { currentUsages: true } });
    expect(currentUsages).toEqual(Object.fromEntries(types.map((type, i) => [type, i + 1 + round])));
  }
});
