import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { makeOffering, orderIn } from "../../test/support/order-fixtures.ts";

let t: TestApp;
let basic: { id: string; uuid: string };
const uuids: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  basic = await makeOffering(db, t.world, "Marketplace.Basic");
  uuids.pendingProvider = (await orderIn(db, t.world, "PENDING_PROVIDER")).uuid;
  uuids.executing = (await orderIn(db, t.world, "EXECUTING")).uuid;
  const done = await orderIn(db, t.world, "DONE");
  uuids.done = done.uuid;
  uuids.doneResource = done.resource.uuid;
  uuids.terminate = (await orderIn(db, t.world, "PENDING_PROVIDER", { type: "TERMINATE", offeringId: basic.id })).uuid;
});
afterAll(() => t.close());

/** A list answers an array, a bad filter an error object. */
const list = async (query: string): Promise<any> =>
  (await t.http("GET", `/api/marketplace-orders/?${query}`, { token: t.world.tokens.providerOwner })).body;
const uuidsOf = async (query: string) => ((await list(query)) as Array<{ uuid: string }>).map((o) => o.uuid).sort();

describe("order filters", () => {
  it("the site agent's query: offering, repeated state labels, page_size", async () => {
    const body = await uuidsOf(`offering_uuid=${t.world.offering.uuid}&state=pending-provider&state=executing&page_size=100`);
    expect(body).toEqual([uuids.pendingProvider, uuids.executing].sort());
  });

  it("type, provider, customer, project, resource", async () => {
    expect(await uuidsOf("type=Terminate")).toEqual([uuids.terminate]);
    expect(await uuidsOf(`offering_uuid=${basic.uuid}`)).toEqual([uuids.terminate]);
    expect(await uuidsOf(`provider_uuid=${t.world.provider.uuid}`)).toHaveLength(4);
    expect(await uuidsOf(`customer_uuid=${t.world.consumer.uuid}&project_uuid=${t.world.project.uuid}`)).toHaveLength(4);
    expect(await uuidsOf(`customer_uuid=${t.world.provider.uuid}`)).toEqual([]);
    expect(await uuidsOf(`resource_uuid=${uuids.doneResource}`)).toEqual([uuids.done]);
  });

  it("created and modified are on-or-after", async () => {
    expect(await uuidsOf("created=2000-01-01")).toHaveLength(4);
    expect(await uuidsOf("created=2999-01-01")).toEqual([]);
    expect(await uuidsOf("modified=2999-01-01T00:00:00Z")).toEqual([]);
  });

  it("ordering by o; newest first by default", async () => {
    const byState = ((await list("o=state")) as Array<{ state: string }>).map((o) => o.state);
    expect(byState).toEqual(["pending-provider", "pending-provider", "executing", "done"]);
    const newest = (await list("")) as Array<{ uuid: string }>;
    expect(newest[0].uuid).toBe(uuids.terminate);
    expect(((await list("o=created")) as Array<{ uuid: string }>)[0].uuid).toBe(uuids.pendingProvider);
  });

  it("bad values are 400", async () => {
    expect(await list("state=pending")).toEqual({ state: ["Select a valid choice. pending is not one of the available choices."] });
    expect(await list("type=Restored")).toEqual({ type: ["Select a valid choice. Restored is not one of the available choices."] });
    expect(await list("provider_uuid=1")).toEqual({ provider_uuid: ["Enter a valid UUID."] });
  });
});
