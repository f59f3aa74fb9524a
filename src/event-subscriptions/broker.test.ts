import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBrokerSettings } from "../platform/settings/broker-settings.ts";
import { toHex } from "../platform/ids.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { brokerUnderTest, management, WALDUR_QUEUE } from "../../test/support/broker.ts";
import { makeResource, userWithRoles } from "../../test/support/order-fixtures.ts";
import { type StompConsumer, stompConsumer, stompLoginFails } from "../../test/support/stomp.ts";
import { subscribeAsAgent as subscribeTo } from "../../test/support/agent-subscription.ts";
import { sweepBrokerLogins } from "./teardown.ts";
import { failuresOf } from "../../test/support/graphql-failures.ts";

const broker = brokerUnderTest();

describe("without a broker", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("register_event_subscription answers Waldur's 400 and the agent keeps its REST sweep", async () => {
    const identity = await t.http("POST", "/api/marketplace-site-agent-identities/", {
      token: t.world.tokens.providerOwner,
      body: { offering: t.world.offering.uuid, name: "agent" },
    });
    const res = await t.http("POST", `/api/marketplace-site-agent-identities/${identity.body.uuid}/register_event_subscription/`, {
      token: t.world.tokens.providerOwner,
      body: { observable_object_type: "order" },
    });
    expect([res.status, res.body]).toEqual([400, { detail: "Event subscriptions are not configured." }]);
    expect(await t.app.deps.db.eventSubscription.count()).toBe(0);

    const graphql = await t.gql(
      `mutation($input: RegisterEventSubscriptionInput!) { registerEventSubscription(input: $input) { ... on EventSubscriptionRegistration { created } ${failuresOf("registerEventSubscription")} } }`,
      { input: { identityUuid: identity.body.uuid, observableObjectType: "order" } },
      t.world.tokens.providerOwner,
    );
    expect(graphql.data?.registerEventSubscription).toEqual({ __typename: "ValidationError", code: "VALIDATION", message: "Event subscriptions are not configured.", fields: [] });
  });

  it("sync_resources answers 409 while no agent listens; sync_user_roles is for staff", async () => {
    const sync = await t.http("POST", `/api/marketplace-provider-offerings/${t.world.offering.uuid}/sync_resources/`, { token: t.world.tokens.providerOwner });
    expect([sync.status, sync.body]).toEqual([409, { detail: "No site agent is subscribed to resource synchronisation of this offering." }]);
    const roles = await t.http("POST", `/api/projects/${t.world.project.uuid}/sync_user_roles/`, { token: t.world.tokens.providerOwner });
    expect(roles.status).toBe(403);
    const staff = await t.http("POST", `/api/projects/${t.world.project.uuid}/sync_user_roles/`, { token: t.world.tokens.staff });
    expect([staff.status, staff.body]).toEqual([200, { status: "User role synchronisation has been requested." }]);
  });
});

describe.skipIf(!broker)("with a RabbitMQ broker", () => {
  let t: TestApp;
  let identityUuid: string;
  const consumers: StompConsumer[] = [];
  const vhosts = new Set<string>();

  beforeAll(async () => {
    const settings = loadBrokerSettings({ RABBITMQ_MANAGEMENT_URL: broker!.managementUrl, RABBITMQ_URL: broker!.amqpUrl, BROKER_RELAY_INTERVAL_MS: "200" });
    t = await startTestApp({ broker: settings.broker });
    const identity = await t.http("POST", "/api/marketplace-site-agent-identities/", {
      token: t.world.tokens.providerOwner,
      body: { offering: t.world.offering.uuid, name: "agent" },
    });
    identityUuid = identity.body.uuid;
  });
  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.close()));
    await t.close();
    await Promise.all([...vhosts].map((vhost) => management().deleteVhost(vhost)));
  });

  const call = (method: string, path: string, body: unknown, token: string) => t.http(method, path, { token, body });

  async function subscribeAsAgent(objectType: string, token = t.world.tokens.providerOwner) {
    const agent = await subscribeTo(call, broker!, { identityUuid, offeringUuid: t.world.offering.id, objectType, token });
    consumers.push(agent.consumer);
    vhosts.add(agent.subscription.user_uuid);
    return agent;
  }

  it("registers per token (201, then 200), declares Waldur's queue and provisions the agent's login", async () => {
    const { subscription, queue } = await subscribeAsAgent("user_profile");
    expect(subscription).toMatchObject({ user_uuid: t.world.users.providerOwner.uuid, observable_objects: [{ object_type: "user_profile" }] });
    const again = await t.http("POST", `/api/marketplace-site-agent-identities/${identityUuid}/register_event_subscription/`, {
      token: t.world.tokens.providerOwner,
      body: { observable_object_type: "user_profile" },
    });
    expect([again.status, again.body.uuid]).toEqual([200, subscription.uuid]);
    expect(queue).toMatchObject({
      event_subscription_uuid: subscription.uuid,
      offering_uuid: t.world.offering.uuid,
      object_type: "user_profile",
      queue_name: `subscription_${subscription.uuid}_offering_${t.world.offering.uuid}_user_profile`,
      vhost: subscription.user_uuid,
    });
    const declared = await management().getQueue(subscription.user_uuid, queue.queue_name);
    expect(declared).toMatchObject(WALDUR_QUEUE);
    const queueAgain = await t.http("POST", `/api/event-subscriptions/${subscription.uuid}/create_queue/`, {
      token: t.world.tokens.providerOwner,
      body: { offering_uuid: t.world.offering.uuid, object_type: "user_profile" },
    });
    expect([queueAgain.status, queueAgain.body.uuid]).toEqual([200, queue.uuid]);
    expect(await stompLoginFails({ url: broker!.webStompUrl, login: subscription.uuid, passcode: "0".repeat(40), vhost: subscription.user_uuid })).toBe(true);
    const listed = await t.http("GET", "/api/event-subscriptions/?user_uuid=" + subscription.user_uuid, { token: t.world.tokens.providerOwner });
    expect(listed.body.map((s: { uuid: string }) => s.uuid)).toContain(subscription.uuid);
    const others = await t.http("GET", `/api/event-subscriptions/${subscription.uuid}/`, { token: t.world.tokens.projectAdmin });
    expect(others.status).toBe(404);
  });

  it("create_queue refuses an unknown offering and a bad object type with field errors", async () => {
    const { subscription } = await subscribeAsAgent("user_ssh_key");
    const unknown = await t.http("POST", `/api/event-subscriptions/${subscription.uuid}/create_queue/`, {
      token: t.world.tokens.providerOwner,
      body: { offering_uuid: "0".repeat(32), object_type: "order" },
    });
    expect([unknown.status, unknown.body]).toEqual([400, { offering_uuid: [`Offering with UUID ${"0".repeat(32)} does not exist`] }]);
    const badType = await t.http("POST", `/api/event-subscriptions/${subscription.uuid}/create_queue/`, {
      token: t.world.tokens.providerOwner,
      body: { offering_uuid: t.world.offering.uuid, object_type: "orders" },
    });
    expect([badType.status, badType.body]).toEqual([400, { object_type: ['"orders" is not a valid choice.'] }]);
  });

  it("an order created by a project admin reaches the agent's queue as order pending-provider", async () => {
    const { consumer } = await subscribeAsAgent("order");
    const created = await t.http("POST", "/api/marketplace-orders/", {
      token: t.world.tokens.projectAdmin,
      body: { offering: t.world.offering.uuid, project: t.world.project.uuid, attributes: { name: "alloc" } },
    });
    expect(created.body.state).toBe("pending-provider");
    const delivery = await consumer.next((d) => (d.body as { order_uuid?: string }).order_uuid === created.body.uuid);
    expect(delivery.body).toEqual({ order_uuid: created.body.uuid, order_state: "pending-provider", offering_uuid: t.world.offering.uuid });
    await t.http("POST", `/api/marketplace-orders/${created.body.uuid}/approve_by_provider/`, { token: t.world.tokens.providerOwner, body: {} });
    const approved = await consumer.next((d) => (d.body as { order_state?: string }).order_state === "executing");
    expect(approved.body).toMatchObject({ order_uuid: created.body.uuid });
  });

  it("a project role granted reaches the offering's user_role queue; the offering user it creates gets username_set", async () => {
    const roles = await subscribeAsAgent("user_role");
    const users = await subscribeAsAgent("offering_user");
    await makeResource(t.app.deps.db, t.world, "OK", { backendId: "hpc_r1" });
    const newcomer = await userWithRoles(t.app.deps.db, []);
    const granted = await t.http("POST", `/api/projects/${t.world.project.uuid}/add_user/`, {
      token: t.world.tokens.staff,
      body: { user: toHex(newcomer.id), role: "PROJECT.MEMBER" },
    });
    expect(granted.status).toBe(201);
    const role = await roles.consumer.next((d) => (d.body as { user_uuid?: string }).user_uuid === toHex(newcomer.id));
    expect(role.body).toEqual({
      user_uuid: toHex(newcomer.id),
      user_username: newcomer.username,
      project_uuid: t.world.project.uuid,
      project_name: "Project",
      role_name: "PROJECT.MEMBER",
      granted: true,
      offering_uuid: t.world.offering.uuid,
    });
    const created = await users.consumer.next((d) => (d.body as { action?: string }).action === "create");
    const offeringUserUuid = (created.body as { offering_user_uuid: string }).offering_user_uuid;
    await t.http("POST", `/api/marketplace-offering-users/${offeringUserUuid}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} });
    const pushed = await t.http("PATCH", `/api/marketplace-offering-users/${offeringUserUuid}/`, { token: t.world.tokens.providerOwner, body: { username: "newcomer_1" } });
    expect(pushed.status).toBe(200);
    const set = await users.consumer.next((d) => (d.body as { action?: string }).action === "username_set");
    expect(set.body).toEqual({
      offering_user_uuid: offeringUserUuid,
      user_uuid: toHex(newcomer.id),
      username: "newcomer_1",
      state: "OK",
      action: "username_set",
      resource_backend_ids: ["hpc_r1"],
      offering_uuid: t.world.offering.uuid,
    });
  });

  it("register_queue: one consumer queue per identity with object_type in every body (201, then 200; another user 409)", async () => {
    const path = `/api/marketplace-site-agent-identities/${identityUuid}/register_queue/`;
    const first = await t.http("POST", path, { token: t.world.tokens.providerOwner, body: { object_types: ["order", "offering_user"] } });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      rmq_username: expect.stringMatching(/^[0-9a-f]{32}$/),
      queue_name: expect.stringMatching(/^consumer_[0-9a-f]{32}$/),
      vhost: t.world.users.providerOwner.uuid,
      observable_object_types: ["order", "offering_user"],
    });
    const again = await t.http("POST", path, { token: t.world.tokens.providerOwner, body: {} });
    expect([again.status, again.body]).toEqual([200, first.body]);
    const other = await t.http("POST", path, { token: t.world.tokens.offeringManager, body: {} });
    expect(other.status).toBe(409);
    const bad = await t.http("POST", path, { token: t.world.tokens.providerOwner, body: { object_types: ["orders"] } });
    expect(bad.status).toBe(400);

    const consumer = await stompConsumer({
      url: broker!.webStompUrl,
      login: first.body.rmq_username,
      passcode: t.world.tokens.providerOwner,
      vhost: first.body.vhost,
      queue: first.body.queue_name,
    });
    consumers.push(consumer);
    const created = await t.http("POST", "/api/marketplace-orders/", {
      token: t.world.tokens.projectAdmin,
      body: { offering: t.world.offering.uuid, project: t.world.project.uuid, attributes: { name: "unified" } },
    });
    const delivery = await consumer.next((d) => (d.body as { order_uuid?: string }).order_uuid === created.body.uuid);
    expect(delivery.body).toEqual({ order_uuid: created.body.uuid, order_state: "pending-provider", offering_uuid: t.world.offering.uuid, object_type: "order" });
  });

  it("sync_resources: 202 and an offering_resources_sync message for the offering's agent", async () => {
    const { consumer } = await subscribeAsAgent("offering_resources_sync");
    const res = await t.http("POST", `/api/marketplace-provider-offerings/${t.world.offering.uuid}/sync_resources/`, { token: t.world.tokens.providerOwner });
    expect([res.status, res.body]).toEqual([202, { status: "Resource synchronisation has been requested." }]);
    const delivery = await consumer.next();
    expect(delivery.body).toEqual({ requested_by_user_uuid: t.world.users.providerOwner.uuid, offering_uuid: t.world.offering.uuid });
  });

  it("a message to a queue the broker no longer has is dropped, logged and counted as unrouted in /metrics", async () => {
    const orders = await subscribeAsAgent("order");
    const { subscription } = orders;
    await orders.consumer.close();
    await management().request("DELETE", `/api/queues/${subscription.user_uuid}/${orders.queue.queue_name}`);
    const unrouted = async () => {
      const text = await (await t.app.fetch(new Request("http://localhost/metrics"))).text();
      return Number(/gateway_broker_messages_total\{outcome="unrouted"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await unrouted();
    await t.http("POST", "/api/marketplace-orders/", {
      token: t.world.tokens.projectAdmin,
      body: { offering: t.world.offering.uuid, project: t.world.project.uuid, attributes: { name: "nowhere" } },
    });
    await expect.poll(unrouted, { timeout: 5000 }).toBeGreaterThan(before);
    expect(await t.app.deps.db.brokerOutbox.count()).toBe(0);
  });

  it("the sweep deletes broker logins of ours that nothing holds any more, and leaves other deployments' alone", async () => {
    const ours = t.world.users.providerOwner.uuid;
    const foreign = "f".repeat(32);
    const orphan = "a1".repeat(16);
    const stranger = "b2".repeat(16);
    const api = management();
    await api.request("PUT", `/api/vhosts/${foreign}`);
    vhosts.add(foreign);
    for (const [login, vhost] of [[orphan, ours], [stranger, foreign]]) {
      await api.request("PUT", `/api/users/${login}`, { password: "x", tags: "" });
      await api.request("PUT", `/api/permissions/${vhost}/${login}`, { configure: ".*", write: ".*", read: ".*" });
    }
    const { subscription } = await subscribeAsAgent("user_lifecycle");
    expect(await sweepBrokerLogins(t.app.deps)).toBeGreaterThanOrEqual(1);
    expect(await api.userExists(orphan)).toBe(false);
    expect(await api.userExists(stranger)).toBe(true);
    expect(await api.userExists(subscription.uuid)).toBe(true);
    await api.deleteUser(stranger);
  });

  it("deleting the subscription removes its broker login; revoking its token does too", async () => {
    const { subscription } = await subscribeAsAgent("course_account");
    expect(await management().userExists(subscription.uuid)).toBe(true);
    const gone = await t.http("DELETE", `/api/event-subscriptions/${subscription.uuid}/`, { token: t.world.tokens.providerOwner });
    expect(gone.status).toBe(204);
    expect(await management().userExists(subscription.uuid)).toBe(false);

    const owner = await userWithRoles(t.app.deps.db, [["CUSTOMER.OWNER", "CUSTOMER", t.world.provider.id]]);
    const own = await subscribeAsAgent("service_account", owner.token);
    expect(await management().userExists(own.subscription.uuid)).toBe(true);
    await t.http("POST", "/api-auth/logout/", { token: owner.token });
    await expect.poll(() => management().userExists(own.subscription.uuid), { timeout: 5000 }).toBe(false);
    expect(await t.app.deps.db.eventSubscription.count({ where: { id: own.subscription.uuid } })).toBe(0);
  });
});
