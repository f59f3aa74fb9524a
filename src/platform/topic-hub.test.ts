import { describe, expect, it } from "vitest";
import { TopicHub, type TopicTransport } from "./topic-hub.ts";

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
});
