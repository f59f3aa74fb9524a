import http from "node:http";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { APPLICATION_NAME } from "../src/platform/database/connect.ts";
import { globalId } from "./support/global-ids.ts";
import WebSocket from "ws";
import { type GatewayProcess, killGateways, startGateway } from "./support/server-process.ts";
import { drainReport, seeded, waitForLockWait } from "./support/shutdown.ts";
import { type GatewayStorage, postgresStorage } from "./support/storage.ts";
import { sleep } from "./support/ws.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
const storages: GatewayStorage[] = [];
afterAll(async () => {
  killGateways();
  for (const storage of storages) await storage.dispose();
});

type Outcome = { status: number; body: string } | { cut: string };

/** What the client saw: an answer, or the connection cut (its error code). */
function send(baseUrl: string, method: string, path: string, token: string, body?: unknown): Promise<Outcome> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const request = http.request(`${baseUrl}${path}`, {
      method,
      agent: false,
      headers: { authorization: `Token ${token}`, ...(payload ? { "content-type": "application/json" } : {}) },
    });
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body: text }));
      response.on("error", (error: NodeJS.ErrnoException) => resolve({ cut: error.code ?? error.message }));
    });
    request.on("error", (error: NodeJS.ErrnoException) => resolve({ cut: error.code ?? error.message }));
    request.end(payload);
  });
}

/** Until no connection of the gateway's is left on the database (a backend whose client left ends after its statement). */
async function untilGatewayBackendsEnd(db: pg.Client, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await db.query(
      "SELECT count(*)::int AS left FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
      [APPLICATION_NAME],
    );
    if (rows[0].left === 0) return;
    await sleep(25);
  }
  throw new Error("the gateway's backends are still there");
}

/**
 * Timeouts of the database's far beyond the test, so that only the shutdown may stop the write; the statement timeout
 * is on (and below the transaction's), so a change that commits alone runs as one statement without a transaction.
 */
const DISTANT_DATABASE_TIMEOUTS = { DATABASE_STATEMENT_TIMEOUT_MS: "60000", DATABASE_TRANSACTION_TIMEOUT_MS: "120000" };

const STOPPED = "The server is shutting down; this request was not applied. Retry it.";
const stoppedAnswer = { status: 503, body: { detail: STOPPED } };
const offeringUsers = "/api/marketplace-offering-users";

/** A write that waits for the offering user's row lock, with the answer its client gets when the grace period ends. */
interface WaitingWrite {
  name: string;
  request(uuid: string): { method: string; path: string; body?: unknown };
  answer: { status: number; body: unknown };
}

const WRITES: WaitingWrite[] = [
  {
    name: "a REST transition that commits alone (one statement on the pool)",
    request: (uuid: string) => ({ method: "POST", path: `${offeringUsers}/${uuid}/begin_creating/` }),
    answer: stoppedAnswer,
  },
  {
    name: "a REST comment update in an interactive transaction",
    request: (uuid: string) => ({ method: "PATCH", path: `${offeringUsers}/${uuid}/update_comments/`, body: { service_provider_comment: "cut off" } }),
    answer: stoppedAnswer,
  },
  {
    name: "a GraphQL transition over HTTP",
    request: (uuid: string) => ({
      method: "POST",
      path: "/graphql",
      body: { query: `mutation { beginCreatingOfferingUser(input: { id: "${globalId("OfferingUser", uuid)}" }) { ... on OfferingUser { state } } }` },
    }),
    // The operation's own failure (its write was stopped), not the answer to a request that began no write.
    answer: { status: 200, body: { data: { beginCreatingOfferingUser: null }, errors: [expect.objectContaining({ message: STOPPED, extensions: { code: "UNAVAILABLE" } })] } },
  },
];

interface LockedRow {
  gateway: GatewayProcess;
  token: string;
  /** The offering user whose row is locked. */
  uuid: string;
  databaseUrl: string;
}

/**
 * Runs `act` against a gateway (over a new database, with `env`) while another connection holds the offering user's
 * row lock; then releases the lock, waits until the gateway's backends have ended, and reads what was stored.
 */
async function whileRowLocked<T>(env: Record<string, string>, act: (locked: LockedRow) => Promise<T>) {
  const storage = await postgresStorage(postgresUrl!);
  const { token, offeringUser } = await seeded(storage, storages);
  const gateway = await startGateway({ ...storage.env, ...DISTANT_DATABASE_TIMEOUTS, ...env });
  const locker = new pg.Client({ connectionString: storage.url });
  await locker.connect();
  try {
    await locker.query("BEGIN");
    await locker.query("SELECT 1 FROM offering_users WHERE id = $1 FOR UPDATE", [offeringUser.id]);
    const result = await act({ gateway, token, uuid: offeringUser.uuid, databaseUrl: storage.url! });
    await locker.query("ROLLBACK");
    await untilGatewayBackendsEnd(locker);
    const { rows } = await locker.query("SELECT state, service_provider_comment AS comment FROM offering_users WHERE id = $1", [offeringUser.id]);
    const events = await locker.query("SELECT count(*)::int AS n FROM events WHERE event_type = 'marketplace_offering_user_updated'");
    return { result, stored: rows, updatedEvents: events.rows[0].n, output: gateway.output() };
  } finally {
    await locker.end();
  }
}

const UNCHANGED = [{ state: "CREATION_REQUESTED", comment: "" }];

describe.skipIf(!postgresUrl)("the grace period ends while a write waits for a row lock (PostgreSQL)", () => {
  it.each(WRITES)("$name never commits, and its client is told so", async ({ request, answer }) => {
    const { result, stored, updatedEvents, output } = await whileRowLocked({ SHUTDOWN_GRACE_MS: "1000" }, async ({ gateway, token, uuid, databaseUrl }) => {
      const { method, path, body } = request(uuid);
      const outcome = send(gateway.baseUrl, method, path, token, body);
      await waitForLockWait(databaseUrl);
      const signalled = Date.now();
      gateway.signal("SIGTERM");
      const exit = await gateway.exited;
      const shutdownMs = Date.now() - signalled;
      const seen = await outcome;
      console.log(`${method} ${path}: ${JSON.stringify(seen)}, exit ${JSON.stringify(exit)} after ${shutdownMs} ms`);
      return { seen, exit, shutdownMs };
    });
    expect(stored).toEqual(UNCHANGED);
    expect(updatedEvents).toBe(0);
    const { seen, exit, shutdownMs } = result;
    expect("body" in seen ? { status: seen.status, body: JSON.parse(seen.body) } : seen).toEqual(answer);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(drainReport(output)).toMatchObject({ finished: 1, stopped: 1, cutOff: 0 });
    expect(shutdownMs).toBeGreaterThanOrEqual(1000);
    expect(shutdownMs).toBeLessThan(5_000);
  }, 120_000);
});

describe.skipIf(!postgresUrl)("a mutation on a WebSocket waits for a row lock at SIGTERM (PostgreSQL)", () => {
  it("is stopped with its socket, at once: it never commits", async () => {
    const { result, stored, updatedEvents } = await whileRowLocked({ SHUTDOWN_GRACE_MS: "10000" }, async ({ gateway, token, uuid, databaseUrl }) => {
      const socket = await acknowledgedSocket(gateway.wsUrl, token);
      const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
      const query = `mutation { beginCreatingOfferingUser(input: { id: "${globalId("OfferingUser", uuid)}" }) { ... on OfferingUser { state } } }`;
      socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query } }));
      await waitForLockWait(databaseUrl);
      const signalled = Date.now();
      gateway.signal("SIGTERM");
      const code = await closed;
      const exit = await gateway.exited;
      return { code, exit, shutdownMs: Date.now() - signalled };
    });
    expect(stored).toEqual(UNCHANGED);
    expect(updatedEvents).toBe(0);
    expect(result.code).toBe(1001);
    expect(result.exit).toEqual({ code: 0, signal: null });
    // Well within the 10 s of grace: nothing else was in flight.
    expect(result.shutdownMs).toBeLessThan(5_000);
  }, 120_000);
});

/** A graphql-ws connection, acknowledged. */
async function acknowledgedSocket(wsUrl: string, token: string) {
  const socket = new WebSocket(wsUrl, "graphql-transport-ws");
  await new Promise<void>((resolve, reject) => {
    socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Token ${token}` } })));
    socket.on("message", (data) => {
      if (JSON.parse(String(data)).type === "connection_ack") resolve();
    });
    socket.on("error", reject);
  });
  return socket;
}
