import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { contextFor } from "../src/context.ts";
import { OFFERING_USER_CORE, recordOfferingUserChange } from "../src/offering-users/changes.ts";
import type { OfferingUserChangedPayload } from "../src/offering-users/offering-user-changed.ts";
import { transact } from "../src/platform/database/transaction.ts";
import { startTestApp, type TestApp } from "./support/app.ts";
import { type Feed, sleep, SubscriptionClients } from "./support/ws.ts";

const MAX_MESSAGES = 50;
const MAX_BYTES = 256 * 1024;
const CHANGES = "subscription { offeringUserChanged { offeringUserUuid offeringUser { serviceProviderComment } } }";

let t: TestApp;
const sockets: WebSocket[] = [];
const clients = new SubscriptionClients(() => t.port);
beforeAll(async () => {
  // In-process pub/sub even in the Redis run: a publication here reaches the hub at once, so the test sets the pace.
  t = await startTestApp({ redisUrl: undefined, subscriptionQueueMaxMessages: MAX_MESSAGES, subscriptionQueueMaxBytes: MAX_BYTES });
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await sleep(100);
});
afterAll(async () => {
  await clients.closeAll();
  await t.close();
});

/** A change of an offering user whose comment is `commentBytes` long: every delivery of it is about that big. */
async function change(commentBytes: number): Promise<OfferingUserChangedPayload> {
  const ou = await t.world.offeringUser("OK", { comment: "c".repeat(commentBytes) });
  return { offeringUserId: ou.id, offeringId: t.world.offering.id, providerCustomerId: t.world.provider.id, state: "OK", previousState: "OK", eventId: 0 };
}

const publish = (payload: OfferingUserChangedPayload) => t.app.deps.pubsub.publish("offeringUserChanged", payload);

/** Publishes `payload` until the subscription has received something: it is registered, and its reader keeps up. */
async function prime(payload: OfferingUserChangedPayload, received: () => boolean) {
  for (let attempt = 0; attempt < 100 && !received(); attempt++) {
    publish(payload);
    await sleep(50);
  }
  expect(received()).toBe(true);
}

/**
 * Publishes `payload` one at a time, letting the server deliver in between, until `done` (or 20 s).
 * With `maxQueued`, only while no subscriber's queue is that long: the queues stay short of their cap.
 */
async function publishUntil(payload: OfferingUserChangedPayload, done: () => boolean | Promise<boolean>, { maxQueued = Infinity } = {}) {
  let published = 0;
  const deadline = Date.now() + 20_000;
  while (!(await done()) && Date.now() < deadline) {
    if (t.app.pubsub.stats().longestQueue < maxQueued) {
      publish(payload);
      published++;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return published;
}

async function droppedAsTooSlow(): Promise<number> {
  const metric = await t.app.metrics.registry.getSingleMetric("gateway_subscriptions_ended_total")?.get();
  return metric?.values.find((v) => v.labels.reason === "too_slow")?.value ?? 0;
}

async function caughtUp(): Promise<number> {
  const metric = await t.app.metrics.registry.getSingleMetric("gateway_subscription_catch_ups_total")?.get();
  return metric?.values.reduce((sum, v) => sum + v.value, 0) ?? 0;
}

/** A graphql-transport-ws client on a bare socket: it can stop reading, and sees the server's close code. */
async function rawSubscriber(subscriptions: number) {
  const socket = new WebSocket(`ws://127.0.0.1:${t.port}/graphql`, "graphql-transport-ws");
  sockets.push(socket);
  let nexts = 0;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Token ${t.world.tokens.staff}` } })));
    socket.on("message", (data) => {
      const message = JSON.parse(String(data));
      if (message.type === "next") nexts++;
      if (message.type !== "connection_ack") return;
      for (let id = 1; id <= subscriptions; id++) socket.send(JSON.stringify({ id: String(id), type: "subscribe", payload: { query: CHANGES } }));
      resolve();
    });
    socket.on("error", reject);
  });
  return { socket, closed, received: () => nexts };
}

describe("a slow graphql-ws subscriber", () => {
  it("that stops reading is dropped once its queue reaches the cap, its socket holding what the network did not take; its connection closes with 4008", async () => {
    const payload = await change(4096);
    const baseline = await droppedAsTooSlow();
    const catchUpsBefore = await caughtUp();
    const client = await rawSubscriber(1);
    await prime(payload, () => client.received() > 0);

    client.socket.pause();
    const published = await publishUntil(payload, async () => (await droppedAsTooSlow()) > baseline);
    expect(await droppedAsTooSlow()).toBe(baseline + 1);
    expect(t.app.pubsub.stats().peakQueue).toBeLessThanOrEqual(MAX_MESSAGES);
    // Its socket held what the network had not taken: not a server behind, which would have gone on from the log.
    expect(await caughtUp()).toBe(catchUpsBefore);

    client.socket.resume();
    expect(await client.closed).toEqual({ code: 4008, reason: "Subscriber too slow." });
    console.log(`graphql-ws: ${published} published after the pause, ${client.received()} received, peak queue ${t.app.pubsub.stats().peakQueue}`);
    expect(client.received()).toBeLessThan(published);
  }, 60_000);

  it("with messages bigger than the byte cap, is closed with 4008 once its socket holds more than the cap unsent", async () => {
    const payload = await change(4 * MAX_BYTES);
    const baseline = { subscribers: t.app.pubsub.stats().subscribers, dropped: await droppedAsTooSlow() };
    const client = await rawSubscriber(5);
    await prime(payload, () => client.received() >= 5);

    // The client stops reading. Once the kernel's buffers are full, a send waits in ws' buffer until the kernel takes
    // it, and the next subscription's message finds it there: at four times the cap, one frame trips it.
    client.socket.pause();
    await publishUntil(payload, () => t.app.pubsub.stats().subscribers === baseline.subscribers, { maxQueued: 10 });
    expect(t.app.pubsub.stats().subscribers).toBe(baseline.subscribers);
    // The socket's own buffer tripped the cap, not the subscribers' queues (kept short of theirs).
    expect(await droppedAsTooSlow()).toBe(baseline.dropped);

    client.socket.resume();
    expect(await client.closed).toEqual({ code: 4008, reason: "Subscriber too slow." });
  }, 60_000);
});

describe("an SSE subscriber that stops reading", () => {
  it("is dropped once its queue reaches the cap, its response holding what the network did not take; its stream ends with the error event and completes", async () => {
    const payload = await change(4096);
    const baseline = await droppedAsTooSlow();
    const catchUpsBefore = await caughtUp();
    const body = JSON.stringify({ query: CHANGES });
    const request = http.request(`${t.baseUrl}/graphql`, {
      method: "POST",
      headers: { accept: "text/event-stream", "content-type": "application/json", authorization: `Token ${t.world.tokens.staff}` },
    });
    request.end(body);
    const response = await new Promise<http.IncomingMessage>((resolve) => request.once("response", resolve));
    expect(response.statusCode).toBe(200);
    let text = "";
    response.on("data", (chunk: Buffer) => (text += chunk.toString()));
    await prime(payload, () => text.includes("event: next"));

    response.pause();
    const published = await publishUntil(payload, async () => (await droppedAsTooSlow()) > baseline);
    expect(await droppedAsTooSlow()).toBe(baseline + 1);
    expect(t.app.pubsub.stats().peakQueue).toBeLessThanOrEqual(MAX_MESSAGES);
    expect(await caughtUp()).toBe(catchUpsBefore);

    response.resume();
    await new Promise((resolve) => response.once("end", resolve));
    const events = text.split("\n\n").filter((e) => e.startsWith("event:"));
    console.log(`SSE: ${published} published after the pause, ${events.length} events received`);
    expect(events.length).toBeLessThan(published);
    const [last, beforeLast] = [events.at(-1), events.at(-2)];
    expect(last).toBe("event: complete\ndata:");
    expect(JSON.parse(beforeLast!.split("data: ")[1])).toEqual({
      errors: [{ message: "Subscriber too slow: changes were dropped; re-read and resubscribe.", extensions: { code: "SUBSCRIBER_TOO_SLOW" } }],
    });
  }, 60_000);
});

/** A writer faster than any subscriber is served: `count` changes committed in one transaction, so published together. */
async function commitChanges(offeringUserId: string, count: number): Promise<number[]> {
  const ctx = contextFor(t.app.deps, null, undefined, { url: t.baseUrl });
  return transact(ctx, async (tx, outbox) => {
    const core = await tx.offeringUser.findUniqueOrThrow({ where: { id: offeringUserId }, select: OFFERING_USER_CORE });
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const change = { eventType: "marketplace_offering_user_updated", message: `change ${i}`, state: core.state, previousState: core.state } as const;
      ids.push((await recordOfferingUserChange(ctx, tx, outbox, core, change)).id);
    }
    return ids;
  });
}

type Change = { offeringUserChanged: { event: { eventId: number } } };
const KEEPING_UP = "subscription { offeringUserChanged { offeringUserUuid state event { eventId } } }";
/** More than the queue holds in each batch: every batch overflows the reader's queue, however fast the server is. */
const BATCH = MAX_MESSAGES + 10;

/**
 * Writes batches while `feed` reads as fast as it is sent to; answers the event ids written after the feed was
 * primed and the ids it received, once it has received the last one written.
 */
async function writeWhileReading(feed: Feed<Change>, batches: number) {
  const ou = await t.world.offeringUser("OK");
  const received: number[] = [];
  let primed: number[] = [];
  for (let attempt = 0; attempt < 100 && !received.length; attempt++) {
    primed = await commitChanges(ou.id, 1);
    received.push(...feed.drain().map((delivery) => delivery.data!.offeringUserChanged.event.eventId));
    if (!received.length) await sleep(50);
  }
  while (received.at(-1)! < primed[0]) received.push((await feed.nextData(30_000)).offeringUserChanged.event.eventId);
  const written: number[] = [];
  for (let batch = 0; batch < batches; batch++) written.push(...(await commitChanges(ou.id, BATCH)));
  while (received.at(-1)! < written.at(-1)!) received.push((await feed.nextData(30_000)).offeringUserChanged.event.eventId);
  return { written, received: received.slice(received.indexOf(primed[0]) + 1) };
}

describe("a subscriber that reads everything it is sent, while the server falls behind the writes", () => {
  it("over graphql-ws gets every change once, in order, and stays connected: the server catches up from the event log", async () => {
    const baseline = await caughtUp();
    const feed = clients.subscribe<Change>(clients.open(t.world.tokens.staff), KEEPING_UP);
    const { written, received } = await writeWhileReading(feed, 4);
    expect(received).toEqual(written);
    expect(await caughtUp()).toBeGreaterThan(baseline);
    await sleep(100);
    expect(feed.drain()).toEqual([]);
    expect(feed.completed).toBe(false);
    feed.stop();
  }, 120_000);

  it("over SSE alike", async () => {
    const baseline = await caughtUp();
    const feed = await clients.overSse<Change>(t.world.tokens.staff, KEEPING_UP);
    const { written, received } = await writeWhileReading(feed, 4);
    expect(received).toEqual(written);
    expect(await caughtUp()).toBeGreaterThan(baseline);
    expect(feed.completed).toBe(false);
  }, 120_000);
});
