import { describe, expect, it } from "vitest";
import { type EndReason, FellBehind, SubscriptionEnded, TopicHub, type TopicTransport } from "./topic-hub.ts";

/** An in-process transport that counts its listeners per topic. */
function countingTransport() {
  const target = new EventTarget();
  const listeners = new Map<string, number>();
  const transport: TopicTransport = {
    addEventListener: (topic, listener) => {
      listeners.set(topic, (listeners.get(topic) ?? 0) + 1);
      target.addEventListener(topic, listener);
    },
    removeEventListener: (topic, listener) => {
      listeners.set(topic, (listeners.get(topic) ?? 0) - 1);
      target.removeEventListener(topic, listener);
    },
    dispatchEvent: (event) => target.dispatchEvent(event),
  };
  return { transport, listeners };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("TopicHub", () => {
  it("listens once per topic however many subscribe, and stops when the last one leaves", async () => {
    const { transport, listeners } = countingTransport();
    const hub = new TopicHub(transport);
    const subscribers = Array.from({ length: 50 }, () => hub.subscribe("a"));
    hub.subscribe("b").return!();
    expect(listeners.get("a")).toBe(1);
    expect(listeners.get("b")).toBe(0);
    expect(hub.size).toBe(50);
    for (const subscriber of subscribers) await subscriber.return!();
    expect(listeners.get("a")).toBe(0);
    expect(hub.size).toBe(0);
  });

  it("hands every subscriber the same payload object, queued while nobody waits", async () => {
    const hub = new TopicHub(countingTransport().transport);
    const [first, second] = [hub.subscribe<{ n: number }>("t"), hub.subscribe<{ n: number }>("t")];
    const payload = { n: 1 };
    hub.publish("t", payload);
    hub.publish("t", { n: 2 });
    const [a, b] = await Promise.all([first.next(), second.next()]);
    expect(a.value).toBe(payload);
    expect(b.value).toBe(payload);
    expect((await first.next()).value).toEqual({ n: 2 });
  });

  it("keeps publication order through slow and fast accept decisions, dropping what is refused", async () => {
    const hub = new TopicHub(countingTransport().transport);
    const subscriber = hub.subscribe<number>("t", (n) => (n % 2 === 0 ? delay(20 - n).then(() => n !== 4) : true));
    for (const n of [0, 1, 2, 3, 4, 5]) hub.publish("t", n);
    const received = [];
    for (let i = 0; i < 5; i++) received.push((await subscriber.next()).value);
    expect(received).toEqual([0, 1, 2, 3, 5]);
  });

  it("decides the next queued payloads while the consumer waits for the first one's decision", async () => {
    const hub = new TopicHub(countingTransport().transport);
    const asked: number[] = [];
    const subscriber = hub.subscribe<number>("t", (n) => (asked.push(n), delay(5).then(() => n !== 2)));
    for (const n of [1, 2, 3, 4, 5, 6, 7]) hub.publish("t", n);
    const first = subscriber.next();
    expect(asked).toEqual([1, 2, 3, 4, 5]);
    expect((await first).value).toBe(1);
    expect((await subscriber.next()).value).toBe(3);
    expect(asked).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("ends a waiting consumer on return and delivers nothing after", async () => {
    const hub = new TopicHub(countingTransport().transport);
    const subscriber = hub.subscribe<number>("t");
    const waiting = subscriber.next();
    await subscriber.return!();
    hub.publish("t", 1);
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(await subscriber.next()).toEqual({ done: true, value: undefined });
  });

  it("rejects the consumer's next() when its accept decision fails, and stays usable for return()", async () => {
    const hub = new TopicHub(countingTransport().transport);
    const subscriber = hub.subscribe<number>("t", () => Promise.reject(new Error("database gone")));
    hub.publish("t", 1);
    await expect(subscriber.next()).rejects.toThrow("database gone");
    await subscriber.return!();
    expect(hub.size).toBe(0);
  });

  it("drops a subscriber whose queue passes the message cap, telling its consumer once, and keeps the others", async () => {
    const ended: EndReason[] = [];
    const hub = new TopicHub(countingTransport().transport, { limits: { maxMessages: 3, maxBytes: 1_000_000 }, onEnded: (r) => ended.push(r) });
    const slow = hub.subscribe<number>("t");
    const fast = hub.subscribe<number>("t");
    const received: number[] = [];
    for (let n = 0; n < 10; n++) {
      hub.publish("t", n);
      received.push((await fast.next()).value);
      expect(hub.queues.longest).toBeLessThanOrEqual(3);
    }
    expect(received).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(hub.queues.peak).toBe(3);
    expect(ended).toEqual(["too_slow"]);
    expect(hub.size).toBe(1);
    const error = await slow.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubscriptionEnded);
    expect(error).toMatchObject({ message: "Subscriber too slow: changes were dropped; re-read and resubscribe.", extensions: { code: "SUBSCRIBER_TOO_SLOW" } });
    expect(await slow.next()).toEqual({ done: true, value: undefined });
  });

  it("with a Lag that allows it, a subscriber whose queue overflows falls behind, dropping payloads until it rejoins", async () => {
    const fellBehind: boolean[] = [];
    const limits = { maxMessages: 3, maxBytes: 1_000_000 };
    const hub = new TopicHub(countingTransport().transport, { limits, onFellBehind: (_topic, first) => fellBehind.push(first) });
    const dropped: number[] = [];
    let mayFallBehind = true;
    const subscriber = hub.subscribe<number>("t", undefined, { mayFallBehind: () => mayFallBehind, dropped: (n) => dropped.push(n) });
    for (const n of [1, 2, 3, 4, 5]) hub.publish("t", n);
    expect([subscriber.state, dropped, hub.queues.longest]).toEqual(["behind", [1, 2, 3, 4, 5], 0]);
    await expect(subscriber.next()).rejects.toBeInstanceOf(FellBehind);
    subscriber.rejoin();
    for (const n of [6, 7, 8, 9]) hub.publish("t", n);
    expect(dropped).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    subscriber.rejoin();
    hub.publish("t", 10);
    expect(await subscriber.next()).toEqual({ done: false, value: 10 });
    expect(fellBehind).toEqual([true, false]);
    mayFallBehind = false;
    for (const n of [11, 12, 13, 14]) hub.publish("t", n);
    expect(subscriber.state).toBe("ended");
    await expect(subscriber.next()).rejects.toMatchObject({ extensions: { code: "SUBSCRIBER_TOO_SLOW" } });
  });

  it("drops a subscriber whose queued payloads pass the byte cap", async () => {
    const hub = new TopicHub(countingTransport().transport, { limits: { maxMessages: 1000, maxBytes: 100 } });
    const subscriber = hub.subscribe<string>("t");
    hub.publish("t", "x".repeat(40));
    hub.publish("t", "x".repeat(40));
    expect(hub.size).toBe(1);
    hub.publish("t", "x".repeat(40));
    expect(hub.size).toBe(0);
    await expect(subscriber.next()).rejects.toMatchObject({ extensions: { code: "SUBSCRIBER_TOO_SLOW" } });
  });

  it("interrupts one topic's subscribers, waiting or not, and leaves the transport", async () => {
    const { transport, listeners } = countingTransport();
    const ended: EndReason[] = [];
    const hub = new TopicHub(transport, { onEnded: (r) => ended.push(r) });
    const [waiting, queued, other] = [hub.subscribe<number>("t"), hub.subscribe<number>("t"), hub.subscribe<number>("u")];
    const pending = waiting.next();
    hub.publish("t", 1);
    expect(await pending).toEqual({ done: false, value: 1 });
    const next = waiting.next();
    hub.interrupt("t");
    await expect(next).rejects.toMatchObject({ extensions: { code: "SUBSCRIPTION_INTERRUPTED" } });
    await expect(queued.next()).rejects.toMatchObject({ extensions: { code: "SUBSCRIPTION_INTERRUPTED" } });
    expect(ended).toEqual(["interrupted", "interrupted"]);
    expect(listeners.get("t")).toBe(0);
    expect(hub.size).toBe(1);
    await other.return!();
  });

  it("while the feed is lost, interrupts everyone and refuses new subscribers; after it is restored, delivers again", async () => {
    const { transport, listeners } = countingTransport();
    const hub = new TopicHub(transport);
    const before = hub.subscribe<number>("t");
    hub.feedLost();
    await expect(before.next()).rejects.toBeInstanceOf(SubscriptionEnded);
    const during = hub.subscribe<number>("t");
    expect(listeners.get("t")).toBe(0);
    await expect(during.next()).rejects.toMatchObject({ extensions: { code: "SUBSCRIPTION_INTERRUPTED" } });
    hub.feedRestored();
    const after = hub.subscribe<number>("t");
    hub.publish("t", 7);
    expect(await after.next()).toEqual({ done: false, value: 7 });
  });

  it("a consumer that returns after being dropped is not told again", async () => {
    const hub = new TopicHub(countingTransport().transport, { limits: { maxMessages: 1, maxBytes: 1000 } });
    const subscriber = hub.subscribe<number>("t");
    hub.publish("t", 1);
    hub.publish("t", 2);
    await subscriber.return!();
    expect(await subscriber.next()).toEqual({ done: true, value: undefined });
  });
});
