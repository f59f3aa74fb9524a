import { toHex } from "../src/platform/ids.ts";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../src/platform/database/connect.ts";
import { killGateways, startGateway } from "./support/server-process.ts";
import { type GatewayStorage, postgresStorage } from "./support/storage.ts";
import { type Feed, primeFeed, sleep, SubscriptionClients } from "./support/ws.ts";
import { buildWorld } from "./support/world.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const OFFERING_USERS = 25;
/** Each offering user goes Requested → Creating → OK: two transitions apiece. */
const OPERATIONS = ["begin_creating", "set_ok"] as const;
const TRANSITIONS = OFFERING_USERS * OPERATIONS.length;

const OFFERING_USER_CHANGED = `subscription($after: Int) { offeringUserChanged(after: $after) { offeringUserUuid previousState state event { eventId } } }`;
const EVENT_CREATED = `subscription { eventCreated { eventId eventType context } }`;
interface OfferingUserChanged {
  offeringUserChanged: { offeringUserUuid: string; previousState: string | null; state: string; event: { eventId: number } };
}
interface EventCreated {
  eventCreated: { eventId: number; eventType: string; context: Record<string, string> };
}

let storage: GatewayStorage | undefined;
let database: Database | undefined;
const subscriptionClients: SubscriptionClients[] = [];
afterAll(async () => {
  for (const clients of subscriptionClients) await clients.closeAll();
  killGateways();
  await database?.close();
  await storage?.dispose();
});

/** Deliveries of `feed` that `belongs` accepts, until `expected` arrived (or the deadline), plus a quiet period for late duplicates. */
async function collect<T>(feed: Feed<T>, belongs: (data: T) => boolean, expected: number, timeoutMs = 20_000): Promise<T[]> {
  const collected: T[] = [];
  const deadline = Date.now() + timeoutMs;
  while (collected.length < expected && Date.now() < deadline) {
    const data = await feed.nextData(deadline - Date.now()).catch(() => undefined);
    if (data !== undefined && belongs(data)) collected.push(data);
  }
  await sleep(500);
  for (const delivery of feed.drain()) if (delivery.data && belongs(delivery.data)) collected.push(delivery.data);
  return collected;
}

describe.skipIf(!postgresUrl || !redisUrl)("two gateway processes on one PostgreSQL database and one Redis", () => {
  it("every transition made through B reaches the subscribers of A (and of B) exactly once, and a subscriber resuming on A replays them all", async () => {
    storage = await postgresStorage(postgresUrl!);
    database = await storage.open();
    const world = await buildWorld(database.prisma);
    const primer = await world.offeringUser("CREATION_REQUESTED");
    const offeringUsers = [];
    for (let i = 0; i < OFFERING_USERS; i++) offeringUsers.push(await world.offeringUser("CREATION_REQUESTED"));
    const burstUuids = new Set(offeringUsers.map((ou) => ou.uuid));

    const env = { ...storage.env, REDIS_URL: redisUrl!, PUBSUB_PREFIX: `scale-out-${randomBytes(4).toString("hex")}` };
    const [a, b] = await Promise.all([startGateway(env), startGateway(env)]);
    const request = (path: string, method: string, body?: unknown) =>
      fetch(`${b.baseUrl}${path}`, {
        method,
        headers: { authorization: `Token ${world.tokens.staff}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    let touches = 0;
    const touchPrimer = async () => {
      const response = await request(`/api/marketplace-offering-users/${primer.uuid}/update_comments/`, "PATCH", { service_provider_comment: `primer ${++touches}` });
      expect(response.status).toBe(200);
    };

    const subscribersOn = async (port: number) => {
      const clients = new SubscriptionClients(port);
      subscriptionClients.push(clients);
      const changes = clients.subscribe<OfferingUserChanged>(clients.open(world.tokens.staff), OFFERING_USER_CHANGED);
      const events = clients.subscribe<EventCreated>(clients.open(world.tokens.staff), EVENT_CREATED);
      // Through B, so each subscription is known to be registered with Redis before the burst starts.
      await primeFeed(changes, touchPrimer);
      await primeFeed(events, touchPrimer);
      return { changes, events };
    };
    const onA = await subscribersOn(a.port);
    const onB = await subscribersOn(b.port);
    await sleep(300);
    for (const feed of [onA.changes, onA.events, onB.changes, onB.events]) feed.drain();

    const started = Date.now();
    const statuses = await Promise.all(
      offeringUsers.map(async (ou) => {
        const answered: number[] = [];
        for (const operation of OPERATIONS) {
          answered.push((await request(`/api/marketplace-offering-users/${ou.uuid}/${operation}/`, "POST")).status);
        }
        return answered;
      }),
    );
    const burstMs = Date.now() - started;
    expect(statuses.flat()).toEqual(Array(TRANSITIONS).fill(200));

    const { rows: stored } = await database.sql.query<{ id: number; offering_user_uuid: string; new_state: string }>(
      `SELECT id, context->>'offering_user_uuid' AS offering_user_uuid, context->>'new_state' AS new_state
         FROM events WHERE context->>'offering_user_uuid' = ANY($1) ORDER BY id`,
      [[...burstUuids]],
    );
    expect(stored).toHaveLength(TRANSITIONS);
    const storedIds = stored.map((event) => event.id).sort((x, y) => x - y);

    for (const [name, feeds] of [["A", onA], ["B", onB]] as const) {
      const changes = await collect(feeds.changes, (d) => burstUuids.has(d.offeringUserChanged.offeringUserUuid), TRANSITIONS);
      const events = await collect(feeds.events, (d) => burstUuids.has(d.eventCreated.context.offering_user_uuid), TRANSITIONS);
      console.log(`instance ${name}: ${changes.length} offeringUserChanged and ${events.length} eventCreated deliveries for ${TRANSITIONS} transitions (burst took ${burstMs} ms)`);
      expect(changes.map((d) => d.offeringUserChanged.event.eventId).sort((x, y) => x - y)).toEqual(storedIds);
      expect(events.map((d) => d.eventCreated.eventId).sort((x, y) => x - y)).toEqual(storedIds);
      // Per offering user the changes arrive in the order they were made.
      for (const uuid of burstUuids) {
        const seen = changes.filter((d) => d.offeringUserChanged.offeringUserUuid === uuid).map((d) => d.offeringUserChanged);
        expect(seen.map((c) => [c.previousState, c.state])).toEqual([
          ["CREATION_REQUESTED", "CREATING"],
          ["CREATING", "OK"],
        ]);
      }
    }

    // A dashboard that lost its socket reconnects to the other instance: resuming there replays every change made
    // through B since the last one it saw, from the shared event log.
    const resumedClients = new SubscriptionClients(a.port);
    subscriptionClients.push(resumedClients);
    const resumed = resumedClients.subscribe<OfferingUserChanged>(resumedClients.open(world.tokens.staff), OFFERING_USER_CHANGED, {
      after: storedIds[0] - 1,
    });
    const replayed = await collect(resumed, (d) => burstUuids.has(d.offeringUserChanged.offeringUserUuid), TRANSITIONS);
    expect(replayed.map((d) => d.offeringUserChanged.event.eventId)).toEqual(storedIds);

    const [exitA, exitB] = await Promise.all([a.stop(), b.stop()]);
    expect([exitA.code, exitB.code]).toEqual([0, 0]);
  }, 120_000);

  it("a token logged out and a role revoked through A count on B, which had them cached, within a second (over Redis)", async () => {
    const logoutStorage = await postgresStorage(postgresUrl!);
    const logoutDatabase = await logoutStorage.open();
    try {
      const world = await buildWorld(logoutDatabase.prisma);
      const env = { ...logoutStorage.env, REDIS_URL: redisUrl!, PUBSUB_PREFIX: `scale-out-${randomBytes(4).toString("hex")}`, TOKEN_CACHE_MS: "5000" };
      const [a, b] = await Promise.all([startGateway(env), startGateway(env)]);
      const me = (base: string) => fetch(`${base}/api/users/me/`, { headers: { authorization: `Token ${world.tokens.projectMember}` } });
      expect((await me(b.baseUrl)).status).toBe(200);
      const logout = await fetch(`${a.baseUrl}/api-auth/logout/`, { method: "POST", headers: { authorization: `Token ${world.tokens.projectMember}` } });
      expect(logout.status).toBe(204);
      const refusedAt = Date.now();
      while ((await me(b.baseUrl)).status !== 401) {
        expect(Date.now() - refusedAt).toBeLessThan(1000);
        await sleep(20);
      }

      // The same for roles: a role revoked through A stops counting on B, which had the roles cached.
      const owner = world.tokens.providerOwner;
      const provider = (base: string) => fetch(`${base}/api/customers/${world.provider.uuid}/`, { headers: { authorization: `Token ${owner}` } });
      expect((await provider(b.baseUrl)).status).toBe(200);
      const revoke = await fetch(`${a.baseUrl}/api/customers/${world.provider.uuid}/delete_user/`, {
        method: "POST",
        headers: { authorization: `Token ${world.tokens.staff}`, "content-type": "application/json" },
        body: JSON.stringify({ user: toHex(world.users.providerOwner.id), role: "CUSTOMER.OWNER" }),
      });
      expect(revoke.status).toBe(200);
      const revokedAt = Date.now();
      while ((await provider(b.baseUrl)).status !== 404) {
        expect(Date.now() - revokedAt).toBeLessThan(1000);
        await sleep(20);
      }
      await Promise.all([a.stop(), b.stop()]);
    } finally {
      await logoutDatabase.close();
      await logoutStorage.dispose();
    }
  });
});
