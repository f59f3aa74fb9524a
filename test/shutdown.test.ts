import http from "node:http";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { killGateways, startGateway } from "./support/server-process.ts";
import { embeddedStorage, type GatewayStorage, postgresStorage } from "./support/storage.ts";
import { sleep, subscribeOverSse } from "./support/ws.ts";
import { drainReport, refusesConnections, seeded, waitForLockWait } from "./support/shutdown.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
const storages: GatewayStorage[] = [];
afterAll(async () => {
  killGateways();
  for (const storage of storages) await storage.dispose();
});

/** A graphql-ws subscriber on a bare socket, so the close code and reason are the server's own. */
function subscriber(wsUrl: string, token: string) {
  const socket = new WebSocket(wsUrl, "graphql-transport-ws");
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  const acknowledged = new Promise<void>((resolve, reject) => {
    socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Token ${token}` } })));
    socket.on("message", (data) => {
      if (JSON.parse(String(data)).type !== "connection_ack") return;
      socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: "subscription { offeringUserChanged { state } }" } }));
      resolve();
    });
    socket.on("error", reject);
  });
  return { acknowledged, closed };
}

/** A request whose body arrives in two parts: in flight on the server until `finish()` sends the rest. */
function slowUpload(baseUrl: string, method: string, path: string, token: string, body: unknown) {
  const payload = Buffer.from(JSON.stringify(body));
  const half = Math.floor(payload.length / 2);
  const request = http.request(`${baseUrl}${path}`, {
    method,
    agent: false,
    headers: { authorization: `Token ${token}`, "content-type": "application/json", "content-length": payload.length },
  });
  const response = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    request.on("response", (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
      res.on("error", reject);
    });
    request.on("error", reject);
  });
  request.write(payload.subarray(0, half));
  return { response, finish: () => request.end(payload.subarray(half)) };
}

const answered = async (pending: Promise<unknown>) => Promise.race([pending.then(() => true, () => true), sleep(0).then(() => false)]);

describe("SIGTERM on the embedded database", () => {
  it("refuses new connections, lets the request in flight finish, closes WebSockets with 1001, exits 0", async () => {
    const storage = embeddedStorage();
    const { token, offeringUser } = await seeded(storage, storages);
    const gateway = await startGateway({ ...storage.env, LOG_LEVEL: "info" });
    const socket = subscriber(gateway.wsUrl, token);
    await socket.acknowledged;
    const eventStream = await subscribeOverSse(gateway.baseUrl, token, "subscription { offeringUserChanged { state } }");
    expect(eventStream.status).toBe(200);
    const upload = slowUpload(gateway.baseUrl, "PATCH", `/api/marketplace-offering-users/${offeringUser.uuid}/update_comments/`, token, {
      service_provider_comment: "written while the server drains",
    });
    await sleep(500);

    const signalled = Date.now();
    gateway.signal("SIGTERM");
    await refusesConnections(gateway.port);
    expect(await socket.closed).toEqual({ code: 1001, reason: "Server shutting down" });
    expect(await answered(upload.response)).toBe(false);
    upload.finish();
    expect(await upload.response).toMatchObject({ status: 200, connection: "close" });
    expect(eventStream.completed || (await eventStream.failed(1_000)) !== undefined).toBe(true);
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    const shutdownMs = Date.now() - signalled;
    console.log(`graceful shutdown with one request in flight: ${shutdownMs} ms`);
    expect(drainReport(gateway.output())).toMatchObject({ finished: 1, stopped: 0, cutOff: 0, eventStreams: 1 });

    const database = await storage.open();
    const stored = await database.prisma.offeringUser.findUniqueOrThrow({ where: { id: offeringUser.id } });
    await database.close();
    expect(stored.serviceProviderComment).toBe("written while the server drains");
  }, 120_000);

  it("stops a request still unfinished when SHUTDOWN_GRACE_MS runs out (503, nothing applied), and still exits 0", async () => {
    const storage = embeddedStorage();
    const { token, offeringUser } = await seeded(storage, storages);
    const gateway = await startGateway({ ...storage.env, SHUTDOWN_GRACE_MS: "1000" });
    const stuck = slowUpload(gateway.baseUrl, "PATCH", `/api/marketplace-offering-users/${offeringUser.uuid}/update_comments/`, token, {
      service_provider_comment: "never finished",
    });
    await sleep(500);

    const signalled = Date.now();
    gateway.signal("SIGTERM");
    // Its body never came: it began no write, so it is answered at once when the grace period ends.
    const answer = await stuck.response;
    expect(answer).toMatchObject({ status: 503, connection: "close" });
    expect(JSON.parse(answer.body)).toEqual({ detail: "The server is shutting down; this request was not applied. Retry it." });
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    const shutdownMs = Date.now() - signalled;
    console.log(`shutdown with a stuck request and SHUTDOWN_GRACE_MS=1000: ${shutdownMs} ms`);
    expect(shutdownMs).toBeGreaterThanOrEqual(1000);
    expect(shutdownMs).toBeLessThan(5_000);
    expect(drainReport(gateway.output())).toMatchObject({ finished: 1, stopped: 1, cutOff: 0 });

    const database = await storage.open();
    const stored = await database.prisma.offeringUser.findUniqueOrThrow({ where: { id: offeringUser.id } });
    await database.close();
    expect(stored.serviceProviderComment).toBe("");
  }, 120_000);
});

describe.skipIf(!postgresUrl)("SIGTERM on PostgreSQL", () => {
  it("lets a mutation waiting on a row lock finish after the signal", async () => {
    const storage = await postgresStorage(postgresUrl!);
    const { token, offeringUser } = await seeded(storage, storages);
    const gateway = await startGateway(storage.env);
    const locker = new pg.Client({ connectionString: storage.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT 1 FROM offering_users WHERE id = $1 FOR UPDATE", [offeringUser.id]);
      const transition = fetch(`${gateway.baseUrl}/api/marketplace-offering-users/${offeringUser.uuid}/begin_creating/`, {
        method: "POST",
        headers: { authorization: `Token ${token}` },
      });
      await waitForLockWait(storage.url!);

      gateway.signal("SIGTERM");
      await refusesConnections(gateway.port);
      await sleep(300);
      expect(await answered(transition)).toBe(false);
      await locker.query("ROLLBACK");
      expect((await transition).status).toBe(200);
      expect(await gateway.exited).toEqual({ code: 0, signal: null });

      const { rows } = await locker.query("SELECT state FROM offering_users WHERE id = $1", [offeringUser.id]);
      expect(rows).toEqual([{ state: "CREATING" }]);
    } finally {
      await locker.end();
    }
  }, 120_000);
});
