import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { type ClientOptions } from "ws";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

const INIT_TIMEOUT_MS = 300;
const MAX_SUBSCRIPTIONS = 3;
const HEARTBEAT_MS = 250;
const CHANGES = "subscription { offeringUserChanged { offeringUserUuid } }";

interface Message {
  type: string;
  id?: string;
  payload?: any;
}

/** A graphql-transport-ws client written by hand: every message and close code is the test's to choose and see. */
class RawClient {
  readonly socket: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly inbox: Message[] = [];
  private wake: (() => void) | undefined;

  constructor(port: number, options: ClientOptions = {}) {
    this.socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, "graphql-transport-ws", options);
    this.socket.on("message", (data) => {
      this.inbox.push(JSON.parse(String(data)));
      this.wake?.();
    });
    this.closed = new Promise((resolve) => this.socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  async open() {
    if (this.socket.readyState !== WebSocket.OPEN) await new Promise((resolve) => this.socket.once("open", resolve));
    return this;
  }

  send(message: Message) {
    this.socket.send(JSON.stringify(message));
  }

  async next(timeoutMs = 5_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    while (!this.inbox.length) {
      if (Date.now() > deadline) throw new Error(`no message within ${timeoutMs}ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.wake = () => (clearTimeout(timer), resolve());
      });
    }
    return this.inbox.shift()!;
  }

  subscribe(id: string, query = CHANGES) {
    this.send({ type: "subscribe", id, payload: { query } });
  }
}

let t: TestApp;
let openPubSubSubscriptions: () => number;
const clients: RawClient[] = [];
beforeAll(async () => {
  t = await startTestApp({
    websocketInitTimeoutMs: INIT_TIMEOUT_MS,
    websocketMaxSubscriptions: MAX_SUBSCRIPTIONS,
    websocketHeartbeatMs: HEARTBEAT_MS,
  });
  // The hub's open subscriptions (subscribed and not yet returned), besides the app's own followers.
  openPubSubSubscriptions = () => t.app.pubsub.stats().subscribers;
});
afterAll(async () => {
  for (const client of clients) client.socket.terminate();
  await t.close();
});

async function until(condition: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function connect(options?: ClientOptions, token = t.world.tokens.staff) {
  const client = await new RawClient(t.port, options).open();
  clients.push(client);
  client.send({ type: "connection_init", payload: { authorization: `Token ${token}` } });
  expect(await client.next()).toEqual({ type: "connection_ack" });
  return client;
}

async function subscribed(client: RawClient, ids: string[]) {
  const before = openPubSubSubscriptions();
  for (const id of ids) client.subscribe(id);
  await until(() => openPubSubSubscriptions() === before + ids.length);
}

describe("graphql-transport-ws close codes", () => {
  it("4403 when connection_init carries no valid token, with the reason HTTP gives (src/server/websocket-auth.test.ts)", async () => {
    const refusals: Array<[payload: Record<string, string> | undefined, reason: string]> = [
      [undefined, "Authentication credentials were not provided."],
      [{}, "Authentication credentials were not provided."],
      [{ authorization: `Token ${"0".repeat(40)}` }, "Invalid token."],
    ];
    for (const [payload, reason] of refusals) {
      const client = await new RawClient(t.port).open();
      client.send({ type: "connection_init", ...(payload ? { payload } : {}) });
      expect(await client.closed).toEqual({ code: 4403, reason });
    }
  });

  it("4401 when subscribe comes before connection_ack", async () => {
    const client = await new RawClient(t.port).open();
    client.subscribe("1");
    expect(await client.closed).toEqual({ code: 4401, reason: "Unauthorized" });
  });

  it(`4408 when no connection_init arrives within the configured ${INIT_TIMEOUT_MS} ms`, async () => {
    const started = Date.now();
    const client = await new RawClient(t.port).open();
    expect(await client.closed).toEqual({ code: 4408, reason: "Connection initialisation timeout" });
    expect(Date.now() - started).toBeLessThan(INIT_TIMEOUT_MS + 2_000);
  });

  it("4409 when an operation id is reused while its subscription runs", async () => {
    const client = await connect();
    await subscribed(client, ["same"]);
    client.subscribe("same");
    expect(await client.closed).toEqual({ code: 4409, reason: "Subscriber for same already exists" });
  });

  it("4429 on a second connection_init", async () => {
    const client = await connect();
    client.send({ type: "connection_init", payload: { authorization: `Token ${t.world.tokens.staff}` } });
    expect(await client.closed).toEqual({ code: 4429, reason: "Too many initialisation requests" });
  });

  it("4400 on a message that is not graphql-transport-ws", async () => {
    const client = await connect();
    client.socket.send("{ not json");
    expect(await client.closed).toEqual({ code: 4400, reason: "Invalid message received" });
  });
});

describe("operations on one connection", () => {
  it(`caps running operations at ${MAX_SUBSCRIPTIONS}: the next one gets an error message, the connection stays`, async () => {
    const client = await connect();
    await subscribed(client, ["a", "b", "c"]);
    client.subscribe("d");
    expect(await client.next()).toEqual({
      type: "error",
      id: "d",
      payload: [{ message: `Too many operations on this connection: at most ${MAX_SUBSCRIPTIONS} may run at once; complete one first.`, extensions: { code: "TOO_MANY_SUBSCRIPTIONS" } }],
    });

    const open = openPubSubSubscriptions();
    client.send({ type: "complete", id: "a" });
    await until(() => openPubSubSubscriptions() === open - 1);
    await subscribed(client, ["e"]);
    client.socket.close(1000);
  });

  it("answers a syntax error or an over-limit document with an error message, not a closed socket", async () => {
    const client = await connect();
    client.subscribe("broken", "subscription {");
    expect(await client.next()).toMatchObject({ type: "error", id: "broken", payload: [{ message: expect.stringMatching(/^Syntax Error/) }] });
    client.subscribe("deep", `{ me { ${"username ".repeat(2001)} } }`);
    expect(await client.next()).toMatchObject({ type: "error", id: "deep", payload: [{ extensions: { code: "QUERY_TOO_LARGE" } }] });
    client.subscribe("fine", "{ me { username } }");
    expect(await client.next()).toEqual({ type: "next", id: "fine", payload: { data: { me: { username: "staff" } } } });
  });
});

describe("clients that vanish", () => {
  it("a terminated socket leaves no subscription behind, and later publishes reach nobody", async () => {
    const baseline = openPubSubSubscriptions();
    const client = await connect();
    await subscribed(client, ["x", "y"]);
    client.socket.terminate();
    await until(() => openPubSubSubscriptions() === baseline);

    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const moved = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token: t.world.tokens.staff, body: {} });
    expect(moved.status).toBe(200);
    expect(openPubSubSubscriptions()).toBe(baseline);
  });

  it("a client that stops answering pings is terminated by the heartbeat and its subscriptions are released", async () => {
    const baseline = openPubSubSubscriptions();
    const silent = await connect({ autoPong: false });
    const alive = await connect();
    await subscribed(silent, ["s1", "s2"]);
    await subscribed(alive, ["a1"]);

    expect((await silent.closed).code).toBe(1006);
    await until(() => openPubSubSubscriptions() === baseline + 1);
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 3));
    expect(alive.socket.readyState).toBe(WebSocket.OPEN);
    alive.socket.close(1000);
    await until(() => openPubSubSubscriptions() === baseline);
  });
});
