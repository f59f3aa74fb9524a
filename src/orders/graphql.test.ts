import { describe, expect, it } from "vitest";
import { useSubscriptionApp } from "../../test/support/subscription-app.ts";
import { primeFeed, sleep } from "../../test/support/ws.ts";
import { orderIn } from "../../test/support/order-fixtures.ts";
import { failuresOf } from "../../test/support/graphql-failures.ts";
import { globalId } from "../../test/support/global-ids.ts";

const { t, clients } = useSubscriptionApp();

const CREATE = `mutation($input: CreateOrderInput!) { createOrder(input: $input) {
  ... on Order { uuid state type resource { uuid state } } ${failuresOf("createOrder")} } }`;
const APPROVE = `mutation($id: ID!) { approveOrderByProvider(input: { id: $id }) {
  ... on OrderActionResult { detail state order { uuid state providerReviewedBy { username } } } ${failuresOf("approveOrderByProvider")} } }`;
const DONE = `mutation($id: ID!) { setOrderStateDone(input: { id: $id }) { ... on OrderActionResult { state order { resource { state } } } } }`;

describe("orders over GraphQL", () => {
  it("create, approve and complete with the same rules as REST", async () => {
    const input = { offeringUuid: t.world.offering.uuid, projectUuid: t.world.project.uuid, attributes: { name: "gql" }, limits: { cpu: 1 } };
    const created = await t.gql(CREATE, { input }, t.world.tokens.projectAdmin);
    expect(created.errors).toBeUndefined();
    expect(created.data.createOrder).toMatchObject({ state: "PENDING_PROVIDER", type: "CREATE", resource: { state: "CREATING" } });
    const uuid = created.data.createOrder.uuid;
    const id = globalId("Order", uuid);

    const denied = await t.gql(APPROVE, { id }, t.world.tokens.projectAdmin);
    expect(denied.data.approveOrderByProvider).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    const approved = await t.gql(APPROVE, { id }, t.world.tokens.providerOwner);
    expect(approved.data.approveOrderByProvider).toMatchObject({
      detail: "Order has been approved and is being processed.",
      state: "EXECUTING",
      order: { uuid, state: "EXECUTING", providerReviewedBy: { username: "providerOwner" } },
    });
    const again = await t.gql(APPROVE, { id }, t.world.tokens.providerOwner);
    expect(again.data.approveOrderByProvider).toEqual({
      __typename: "OrderTransitionError",
      code: "CONFLICT",
      message: "Valid states for operation: pending-provider.",
      currentState: "EXECUTING",
      allowedFrom: ["PENDING_PROVIDER"],
    });
    const done = await t.gql(DONE, { id }, t.world.tokens.providerOwner);
    expect(done.data.setOrderStateDone).toEqual({ state: "DONE", order: { resource: { state: "OK" } } });

    const listed = await t.gql(`{ orders(filter: { state: [DONE] }) { totalCount nodes { uuid } } }`, {}, t.world.tokens.projectMember);
    expect(listed.data.orders.nodes).toEqual([{ uuid }]);
  });

  it("usage over GraphQL: report, then read it back with its user usages", async () => {
    const resource = (await t.app.deps.db.resource.findFirstOrThrow({ where: { state: "OK" } })).id;
    const set = await t.gql(
      `mutation($r: ID!) {
        setComponentUsage(input: { resourceUuid: $r, usages: [{ type: "cpu", amount: "2.50" }] }) { ... on SetComponentUsagePayload { componentUsages { type } } } }`,
      { r: resource },
      t.world.tokens.offeringManager,
    );
    expect(set.data).toEqual({ setComponentUsage: { componentUsages: [{ type: "cpu" }] } });
    const usage = await t.gql(`query($r: ID!) { componentUsages(filter: { resourceUuid: [$r] }) { nodes { uuid type usage billingPeriod } } }`, { r: resource }, t.world.tokens.offeringManager);
    const [node] = usage.data.componentUsages.nodes;
    expect(node).toMatchObject({ type: "cpu", usage: 2.5 });
    const users = await t.gql(
      `mutation($u: ID!) {
        setComponentUserUsages(input: { componentUsageUuid: $u, usages: [{ username: "alice", usage: "1" }] }) {
          ... on SetComponentUserUsagesPayload { componentUserUsages { username } } } }`,
      { u: node.uuid },
      t.world.tokens.offeringManager,
    );
    expect(users.data).toEqual({ setComponentUserUsages: { componentUserUsages: [{ username: "alice" }] } });
    const back = await t.gql(`query($u: ID!) { componentUsage(uuid: $u) { userUsages { username usage } resource { currentUsages } } }`, { u: node.uuid }, t.world.tokens.projectMember);
    expect(back.data.componentUsage).toEqual({ userUsages: [{ username: "alice", usage: 1 }], resource: { currentUsages: { cpu: 2.5 } } });
  });
});

const ORDER_CHANGED = `subscription($offeringUuid: ID) { orderChanged(offeringUuid: $offeringUuid) {
  orderUuid state previousState order { uuid state } event { eventType } } }`;
const RESOURCE_CHANGED = `subscription { resourceChanged { resourceUuid state previousState resource { uuid state } event { eventType } } }`;

interface OrderChange { orderChanged: { orderUuid: string; state: string | null; previousState: string | null; event: { eventType: string } } }
interface ResourceChange { resourceChanged: { resourceUuid: string; state: string; previousState: string | null; event: { eventType: string } } }

describe("subscriptions", () => {
  it("orderChanged reaches both sides after commit, and nobody else", async () => {
    const provider = clients.subscribe<OrderChange>(clients.open(t.world.tokens.providerManager), ORDER_CHANGED, { offeringUuid: t.world.offering.uuid });
    const consumer = clients.subscribe<OrderChange>(clients.open(t.world.tokens.projectMember), ORDER_CHANGED);
    const outsider = clients.subscribe<OrderChange>(clients.open(t.world.tokens.unrelated), ORDER_CHANGED);
    const prime = async () => {
      const probe = await orderIn(t.app.deps.db, t.world, "EXECUTING");
      await t.http("POST", `/api/marketplace-orders/${probe.uuid}/set_backend_id/`, { token: t.world.tokens.staff, body: { backend_id: "probe" } });
    };
    await primeFeed(provider, prime);
    await primeFeed(consumer, prime);
    await sleep(300);
    for (const feed of [provider, consumer, outsider]) feed.drain();

    const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    await t.http("POST", `/api/marketplace-orders/${order.uuid}/approve_by_provider/`, { token: t.world.tokens.providerOwner, body: {} });
    for (const feed of [provider, consumer]) {
      const change = (await feed.nextData()).orderChanged;
      expect(change).toMatchObject({ orderUuid: order.uuid, previousState: "PENDING_PROVIDER", state: "EXECUTING", event: { eventType: "marketplace_order_approved" } });
    }
    await sleep(300);
    expect(outsider.drain()).toEqual([]);
  });

  it("resourceChanged follows the order's resource", async () => {
    const feed = clients.subscribe<ResourceChange>(clients.open(t.world.tokens.providerOwner), RESOURCE_CHANGED);
    await primeFeed(feed, async () => {
      const probe = await orderIn(t.app.deps.db, t.world, "EXECUTING");
      await t.http("POST", `/api/marketplace-orders/${probe.uuid}/set_state_done/`, { token: t.world.tokens.staff });
    });
    const order = await orderIn(t.app.deps.db, t.world, "EXECUTING");
    await t.http("POST", `/api/marketplace-orders/${order.uuid}/set_state_erred/`, { token: t.world.tokens.providerOwner, body: {} });
    expect((await feed.nextData()).resourceChanged).toMatchObject({
      resourceUuid: order.resource.uuid,
      previousState: "CREATING",
      state: "ERRED",
      event: { eventType: "marketplace_resource_create_failed" },
    });
  });
});
