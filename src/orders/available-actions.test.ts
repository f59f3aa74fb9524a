import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { orderIn } from "../../test/support/order-fixtures.ts";
import { globalId } from "../../test/support/global-ids.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ACTIONS = `query($uuid: ID!) { order(uuid: $uuid) { state availableTransitions { operation mutation to permitted } } }`;
const permittedOf = (actions: Array<{ operation: string; permitted: boolean }>) =>
  Object.fromEntries(actions.map((a) => [a.operation, a.permitted]));

describe("Order.availableTransitions", () => {
  it("a pending-provider order: the provider may approve or reject, the consumer may cancel", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    const provider = await t.gql(ACTIONS, { uuid: order.uuid }, t.world.tokens.providerOwner);
    expect(provider.errors).toBeUndefined();
    expect(provider.data.order.availableTransitions).toContainEqual({
      operation: "approve_by_provider", mutation: "approveOrderByProvider", to: "EXECUTING", permitted: true,
    });
    expect(permittedOf(provider.data.order.availableTransitions)).toMatchObject({ approve_by_provider: true, reject_by_provider: true });
    const consumer = await t.gql(ACTIONS, { uuid: order.uuid }, t.world.tokens.projectAdmin);
    expect(permittedOf(consumer.data.order.availableTransitions)).toMatchObject({ approve_by_provider: false, reject_by_provider: false });
  });

  it("lists only what the state allows, and what it lists as permitted succeeds", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "EXECUTING");
    const { data } = await t.gql(ACTIONS, { uuid: order.uuid }, t.world.tokens.providerOwner);
    const operations = data.order.availableTransitions.map((a: { operation: string }) => a.operation);
    expect(operations).not.toContain("approve_by_provider");
    const done = data.order.availableTransitions.find((a: { operation: string }) => a.operation === "set_state_done");
    expect(done).toMatchObject({ permitted: true, to: "DONE" });
    const result = await t.gql(`mutation($id: ID!) { ${done.mutation}(input: { id: $id }) { ... on OrderActionResult { state } } }`, { id: globalId("Order", order.uuid) }, t.world.tokens.providerOwner);
    expect(result.data[done.mutation]).toEqual({ state: "DONE" });
    const after = await t.gql(ACTIONS, { uuid: order.uuid }, t.world.tokens.providerOwner);
    const remaining = after.data.order.availableTransitions.map((a: { operation: string }) => a.operation);
    expect(remaining).not.toContain("set_state_done");
    expect(remaining.every((operation: string) => ["set_state_erred"].includes(operation))).toBe(true);
  });
});
