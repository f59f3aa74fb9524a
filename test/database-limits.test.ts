import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { globalId } from "./support/global-ids.ts";
import { APPLICATION_NAME, openDatabase } from "../src/platform/database/connect.ts";
import { killGateways, startGateway } from "./support/server-process.ts";
import { type GatewayStorage, postgresStorage } from "./support/storage.ts";
import { sleep } from "./support/ws.ts";
import { buildWorld } from "./support/world.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
const POOL_SIZE = 2;
const STATEMENT_TIMEOUT_MS = 300;
const CONCURRENT_REQUESTS = 4;
const TRANSACTION_TIMEOUT_MS = 1_000;
const LOCK_HELD_MS = 4_000;

let storage: GatewayStorage | undefined;
afterAll(async () => {
  killGateways();
  await storage?.dispose();
});

/** The most connections the gateway held at once (to this file's database: others run alongside), sampled until `done` settles. */
async function peakConnections(url: string, done: Promise<unknown>) {
  const observer = new pg.Client({ connectionString: url });
  await observer.connect();
  let settled = false;
  void done.finally(() => (settled = true));
  let peak = 0;
  let lockWaits = 0;
  while (!settled) {
    const { rows } = await observer.query(
      `SELECT count(*)::int AS connections, count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting
         FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
      [APPLICATION_NAME],
    );
    peak = Math.max(peak, rows[0].connections);
    lockWaits = Math.max(lockWaits, rows[0].waiting);
    await sleep(10);
  }
  await observer.end();
  return { peak, lockWaits };
}

describe.skipIf(!postgresUrl)("DATABASE_POOL_SIZE and DATABASE_STATEMENT_TIMEOUT_MS on PostgreSQL", () => {
  it("a mutation stuck behind a lock past the timeout is a 503, writes nothing, and holds no more connections than the pool", async () => {
    storage = await postgresStorage(postgresUrl!);
    const database = await storage.open();
    const world = await buildWorld(database.prisma);
    const offeringUser = await world.offeringUser("CREATION_REQUESTED");
    await database.close();
    const gateway = await startGateway({
      ...storage.env,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    });
    const transition = () =>
      fetch(`${gateway.baseUrl}/api/marketplace-offering-users/${offeringUser.uuid}/begin_creating/`, {
        method: "POST",
        headers: { authorization: `Token ${world.tokens.staff}` },
      });

    const locker = new pg.Client({ connectionString: storage.url });
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query("SELECT 1 FROM offering_users WHERE id = $1 FOR UPDATE", [offeringUser.id]);
    const requests = Promise.all(Array.from({ length: CONCURRENT_REQUESTS }, transition));
    const [responses, usage] = await Promise.all([requests, peakConnections(storage.url!, requests)]);
    const graphql = await fetch(`${gateway.baseUrl}/graphql`, {
      method: "POST",
      headers: { authorization: `Token ${world.tokens.staff}`, "content-type": "application/json" },
      body: JSON.stringify({ query: `mutation { beginCreatingOfferingUser(input: { id: "${globalId("OfferingUser", offeringUser.uuid)}" }) { ... on OfferingUser { state } } }` }),
    });
    await locker.query("ROLLBACK");

    for (const response of responses) {
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.json()).toEqual({ detail: "The database took too long to answer." });
    }
    expect((await graphql.json()).errors).toEqual([
      expect.objectContaining({ message: "The database took too long to answer.", extensions: expect.objectContaining({ code: "UNAVAILABLE" }) }),
    ]);
    console.log(`pool of ${POOL_SIZE}: at most ${usage.peak} connections, ${usage.lockWaits} waiting on the lock at once`);
    expect(usage.lockWaits).toBeGreaterThanOrEqual(1);
    expect(usage.peak).toBeLessThanOrEqual(POOL_SIZE);

    const { rows: untouched } = await locker.query("SELECT state FROM offering_users WHERE id = $1", [offeringUser.id]);
    expect(untouched).toEqual([{ state: "CREATION_REQUESTED" }]);
    const { rows: events } = await locker.query("SELECT count(*)::int AS n FROM events WHERE context->>'offering_user_uuid' = $1", [offeringUser.uuid]);
    expect(events).toEqual([{ n: 0 }]);

    // Nothing stays broken: with the lock gone the same transition goes through.
    expect((await transition()).status).toBe(200);
    await locker.end();
    expect(await gateway.stop()).toEqual({ code: 0, signal: null });
  }, 120_000);

  it("with no statement timeout, a transition behind a row lock answers 503 at DATABASE_TRANSACTION_TIMEOUT_MS and writes nothing", async () => {
    const own = await postgresStorage(postgresUrl!);
    const seeding = await own.open();
    const world = await buildWorld(seeding.prisma);
    const offeringUser = await world.offeringUser("CREATION_REQUESTED");
    const database = await openDatabase({ databaseUrl: own.url, statementTimeoutMs: 0, transactionTimeoutMs: TRANSACTION_TIMEOUT_MS });
    const app = await createApp({ database, config: { seedDemo: false, logLevel: "silent", rateLimitMutations: 0, pubsubPrefix: "tx-limit" } });
    const transition = () =>
      app.fetch(
        new Request(`http://localhost/api/marketplace-offering-users/${offeringUser.uuid}/begin_creating/`, {
          method: "POST",
          headers: { authorization: `Token ${world.tokens.staff}` },
        }),
      );
    const locker = new pg.Client({ connectionString: own.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT 1 FROM offering_users WHERE id = $1 FOR UPDATE", [offeringUser.id]);
      const releaseLock = sleep(LOCK_HELD_MS).then(() => locker.query("ROLLBACK"));
      const started = Date.now();
      const response = await transition();
      const elapsed = Date.now() - started;
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.json()).toEqual({ detail: "The database took too long to answer." });
      expect(elapsed).toBeGreaterThanOrEqual(TRANSACTION_TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(TRANSACTION_TIMEOUT_MS + 1_000);
      await releaseLock;

      const { rows } = await locker.query("SELECT state FROM offering_users WHERE id = $1", [offeringUser.id]);
      expect(rows).toEqual([{ state: "CREATION_REQUESTED" }]);
      const { rows: events } = await locker.query("SELECT count(*)::int AS n FROM events WHERE context->>'offering_user_uuid' = $1", [offeringUser.uuid]);
      expect(events).toEqual([{ n: 0 }]);
      // The cancelled connection went back to the pool healthy: the same transition goes through now.
      expect((await transition()).status).toBe(200);
    } finally {
      await locker.end();
      await app.close();
      await database.close();
      await seeding.close();
      await own.dispose();
    }
  }, 60_000);
});
