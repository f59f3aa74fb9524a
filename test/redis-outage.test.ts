import { afterAll, describe, expect, it } from "vitest";
import { PrivateRedis, redisServerInstalled } from "./support/redis-server.ts";
import { type GatewayProcess, killGateways, startGateway } from "./support/server-process.ts";
import { embeddedStorage, type GatewayStorage, postgresStorage } from "./support/storage.ts";
import { type Feed, primeFeed, sleep, SubscriptionClients } from "./support/ws.ts";
import { buildWorld } from "./support/world.ts";

const CHANGES = `subscription { offeringUserChanged { offeringUserUuid state } }`;
interface Change {
  offeringUserChanged: { offeringUserUuid: string; state: string };
}

const storages: GatewayStorage[] = [];
const redises: PrivateRedis[] = [];
const clients: SubscriptionClients[] = [];
afterAll(async () => {
  for (const c of clients) await c.closeAll();
  killGateways();
  for (const redis of redises) await redis.stop();
  for (const storage of storages) await storage.dispose();
});

/** A gateway process on a database of its own (world seeded), started while its private Redis is down. */
async function gatewayWithoutRedis() {
  const postgresUrl = process.env.TEST_DATABASE_URL;
  const storage = postgresUrl ? await postgresStorage(postgresUrl) : embeddedStorage();
  storages.push(storage);
  const database = await storage.open();
  const world = await buildWorld(database.prisma);
  const offeringUser = await world.offeringUser("OK");
  await database.close();
  const redis = await PrivateRedis.start();
  redises.push(redis);
  await redis.stop();
  const gateway = await startGateway({ ...storage.env, REDIS_URL: redis.url });
  const subscriptions = new SubscriptionClients(gateway.port);
  clients.push(subscriptions);
  let touches = 0;
  const touch = async () => {
    const response = await fetch(`${gateway.baseUrl}/api/marketplace-offering-users/${offeringUser.uuid}/update_comments/`, {
      method: "PATCH",
      headers: { authorization: `Token ${world.tokens.staff}`, "content-type": "application/json" },
      body: JSON.stringify({ service_provider_comment: `touch ${++touches}` }),
    });
    return response.status;
  };
  const subscribe = () => subscriptions.subscribe<Change>(subscriptions.open(world.tokens.staff), CHANGES);
  const overSse = () => subscriptions.overSse<Change>(world.tokens.staff, CHANGES);
  return { gateway, redis, touch, subscribe, overSse };
}

const publishFailures = async (gateway: GatewayProcess) => {
  const text = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
  return [...text.matchAll(/^gateway_publish_failures_total\{[^}]*\} (\d+)/gm)].reduce((sum, [, n]) => sum + Number(n), 0);
};

/** Whether the process is still running `ms` from now. */
const staysUp = (gateway: GatewayProcess, ms: number) => Promise.race([gateway.exited.then(() => false), sleep(ms).then(() => true)]);

/** The feed's last delivery names the interruption, then it completes (graphql-ws and SSE alike). */
async function expectInterrupted(feed: Feed<Change>) {
  const last = await feed.next(10_000);
  expect(last.errors).toEqual([{ message: "Subscription feed interrupted; re-read and resubscribe.", extensions: { code: "SUBSCRIPTION_INTERRUPTED" } }]);
  for (let waited = 0; !feed.completed && waited < 2_000; waited += 50) await sleep(50);
  expect(feed.completed).toBe(true);
}

/** A new subscription that hears a new change: retried while the gateway's Redis connection comes back. */
async function resumes(subscribe: () => Feed<Change>, touch: () => Promise<number>) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const feed = subscribe();
    try {
      await primeFeed(feed, touch, 4);
      await touch();
      return (await feed.nextData()).offeringUserChanged;
    } catch (error) {
      feed.stop();
      if (Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
}

/** Waits for the failure counter to pass `above`. */
async function publishFailuresAbove(gateway: GatewayProcess, above: number) {
  const deadline = Date.now() + 15_000;
  while ((await publishFailures(gateway)) <= above && Date.now() < deadline) await sleep(100);
  return publishFailures(gateway);
}

describe.skipIf(!redisServerInstalled)("a Redis outage (a private redis-server, killed and restarted on its port)", () => {
  it("keeps writes committing and the process up, tells subscribers their feed broke, and resumes once Redis is back", async () => {
    const { gateway, redis, touch, subscribe, overSse } = await gatewayWithoutRedis();

    // Down from start-up: writes commit, subscriptions are refused with the interruption, failed publishes are counted.
    expect(await touch()).toBe(200);
    await expectInterrupted(subscribe());
    await expectInterrupted(await overSse());
    expect(await publishFailuresAbove(gateway, 0)).toBeGreaterThan(0);
    expect(await staysUp(gateway, 3_000)).toBe(true);
    expect(gateway.output()).toContain("publish failed");

    await redis.start();
    expect(await resumes(subscribe, touch)).toMatchObject({ state: "OK" });

    // Down while subscribed: both kinds of subscriber are told at once, writes still commit, the process stays up.
    const ws = subscribe();
    await primeFeed(ws, touch);
    const sse = await overSse();
    await primeFeed(sse, touch);
    ws.drain();
    const before = await publishFailures(gateway);
    await redis.stop();
    expect(await touch()).toBe(200);
    await expectInterrupted(ws);
    await expectInterrupted(sse);
    expect(await publishFailuresAbove(gateway, before)).toBeGreaterThan(before);
    expect(await touch()).toBe(200);
    expect(await staysUp(gateway, 3_000)).toBe(true);

    await redis.start();
    expect(await resumes(subscribe, touch)).toMatchObject({ state: "OK" });
    expect((await gateway.stop()).code).toBe(0);
  }, 120_000);
});
