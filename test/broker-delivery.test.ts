import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.ts";
import { type BrokerConnection, loadBrokerSettings } from "../src/platform/settings/broker-settings.ts";
import { agentIdentity, restCaller, subscribeAsAgent } from "./support/agent-subscription.ts";
import { brokerUnderTest, management } from "./support/broker.ts";
import { freshDatabase } from "./support/database.ts";
import { killGateways, startGateway } from "./support/server-process.ts";
import type { StompConsumer } from "./support/stomp.ts";
import { embeddedStorage, type GatewayStorage, postgresStorage } from "./support/storage.ts";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.ts";
import { buildWorld, type World } from "./support/world.ts";

/**
 * Delivery of the site agents' messages: exactly once across instances, after a crash between commit and publish,
 * and through a broker outage that the API's writes never wait for.
 */
const broker = brokerUnderTest();
const postgresUrl = process.env.TEST_DATABASE_URL;

const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  killGateways();
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
});

const brokerEnv = (amqpUrl: string) => ({
  RABBITMQ_MANAGEMENT_URL: broker!.managementUrl,
  RABBITMQ_URL: amqpUrl,
  BROKER_RELAY_INTERVAL_MS: "200",
  BROKER_RETRY_MAX_MS: "1000",
  BROKER_CLAIM_SECONDS: "2",
});
const brokerConfig = (amqpUrl: string): BrokerConnection => loadBrokerSettings(brokerEnv(amqpUrl)).broker!;

async function amqpProxy(): Promise<TcpProxy> {
  const target = new URL(broker!.amqpUrl);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
  cleanup.push(() => proxy.close());
  return proxy;
}

/** The orders' messages the consumer got, by order uuid, once `expected` distinct ones arrived (and a moment more for duplicates). */
async function ordersReceived(consumer: StompConsumer, expected: string[], timeoutMs: number) {
  await expect.poll(() => new Set(consumer.received.map((d) => (d.body as { order_uuid: string }).order_uuid)).size, { timeout: timeoutMs, interval: 100 }).toBeGreaterThanOrEqual(expected.length);
  await new Promise((resolve) => setTimeout(resolve, 600));
  const counts = new Map<string, number>();
  for (const delivery of consumer.received) {
    const uuid = (delivery.body as { order_uuid: string }).order_uuid;
    counts.set(uuid, (counts.get(uuid) ?? 0) + 1);
  }
  return counts;
}

const createOrder = (call: ReturnType<typeof restCaller>, world: World, name: string) =>
  call("POST", "/api/marketplace-orders/", { offering: world.offering.uuid, project: world.project.uuid, attributes: { name } }, world.tokens.projectAdmin);

describe.skipIf(!broker)("site agent message delivery", () => {
  async function appsOverOneDatabase(count: number, amqpUrl: string) {
    const database = await freshDatabase();
    cleanup.push(() => database.drop());
    const apps: App[] = [];
    for (let i = 0; i < count; i++) {
      const app = await createApp({ database, config: { seedDemo: false, logLevel: "silent", rateLimitMutations: 0, pubsubPrefix: `t-${randomBytes(4).toString("hex")}`, broker: brokerConfig(amqpUrl) } });
      cleanup.push(() => app.close());
      apps.push(app);
    }
    const world = await buildWorld(database.prisma);
    const calls = apps.map((app) => restCaller((request) => app.fetch(request), "http://localhost"));
    const identity = await agentIdentity(calls[0], world.offering.uuid, world.tokens.providerOwner);
    const agent = await subscribeAsAgent(calls[0], broker!, { identityUuid: identity, offeringUuid: world.offering.uuid, objectType: "order", token: world.tokens.providerOwner });
    cleanup.push(() => agent.consumer.close(), () => management().deleteVhost(agent.subscription.user_uuid));
    return { database, apps, calls, world, consumer: agent.consumer };
  }

  it("two instances over one database publish each change exactly once", async () => {
    const { calls, world, consumer } = await appsOverOneDatabase(2, broker!.amqpUrl);
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => createOrder(calls[i % 2], world, `alloc-${i}`)));
    expect(created.map((r) => r.status)).toEqual(Array(30).fill(201));
    const counts = await ordersReceived(consumer, created.map((r) => r.body.uuid), 15_000);
    expect([...counts.keys()].sort()).toEqual(created.map((r) => r.body.uuid).sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it("while the broker is unreachable writes keep answering; the messages arrive once it is back", async () => {
    const proxy = await amqpProxy();
    const { database, calls, world, consumer } = await appsOverOneDatabase(1, proxy.urlFor(broker!.amqpUrl));
    const first = await createOrder(calls[0], world, "before");
    await consumer.next((d) => (d.body as { order_uuid: string }).order_uuid === first.body.uuid);

    await proxy.cut();
    const started = Date.now();
    const during = [];
    for (let i = 0; i < 20; i++) during.push(await createOrder(calls[0], world, `during-${i}`));
    expect(during.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await database.prisma.brokerOutbox.count()).toBe(20);
    expect(consumer.received).toHaveLength(1);

    await proxy.resume();
    const counts = await ordersReceived(consumer, [first.body.uuid, ...during.map((r) => r.body.uuid)], 15_000);
    expect(counts.size).toBe(21);
    expect(await database.prisma.brokerOutbox.count()).toBe(0);
  });

  it("a gateway killed (SIGKILL) between commit and publish: the message arrives after the restart", async () => {
    const storage: GatewayStorage = postgresUrl ? await postgresStorage(postgresUrl) : embeddedStorage();
    cleanup.push(() => storage.dispose());
    const seeded = await storage.open();
    const world = await buildWorld(seeded.prisma);
    await seeded.close();

    const proxy = await amqpProxy();
    await proxy.cut();
    const first = await startGateway({ ...storage.env, ...brokerEnv(proxy.urlFor(broker!.amqpUrl)) });
    const call = restCaller(fetch, first.baseUrl);
    const identity = await agentIdentity(call, world.offering.uuid, world.tokens.providerOwner);
    const agent = await subscribeAsAgent(call, broker!, { identityUuid: identity, offeringUuid: world.offering.uuid, objectType: "order", token: world.tokens.providerOwner });
    cleanup.push(() => agent.consumer.close(), () => management().deleteVhost(agent.subscription.user_uuid));
    const order = await createOrder(call, world, "crash");
    expect(order.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 500));
    first.signal("SIGKILL");
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(agent.consumer.received).toHaveLength(0);

    const second = await startGateway({ ...storage.env, ...brokerEnv(broker!.amqpUrl) });
    const delivery = await agent.consumer.next((d) => (d.body as { order_uuid: string }).order_uuid === order.body.uuid, 15_000);
    expect(delivery.body).toMatchObject({ order_state: "pending-provider", offering_uuid: world.offering.uuid });
    await second.stop();
  });
});
