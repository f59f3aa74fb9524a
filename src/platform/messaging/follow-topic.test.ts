import { afterAll, expect, it, vi } from "vitest";
import { PrivateRedis, redisServerInstalled } from "../../../test/support/redis-server.ts";
import { followTopic, openPubSub } from "./pubsub.ts";

/** followTopic over Redis: it goes on after a failing payload and after Redis goes away and comes back. */
type Topics = { ping: { n: number } };
let redis: PrivateRedis;

afterAll(() => redis?.stop());

it.skipIf(!redisServerInstalled)("hands every payload over, survives a failing one and an outage, and subscribes again after it", async () => {
  redis = await PrivateRedis.start();
  const handle = openPubSub<Topics>(redis.url, { prefix: `follow-${process.pid}`, onRedisError: () => {} });
  const seen: number[] = [];
  const subscriptions: boolean[] = [];
  const errors: unknown[] = [];
  let ends = 0;
  const following = followTopic(
    handle.pubsub,
    "ping",
    (payload) => {
      if (payload.n === 2) throw new Error("payload 2 fails");
      seen.push(payload.n);
    },
    { onSubscribe: (again) => subscriptions.push(again), onEnd: () => ends++, onError: (error) => errors.push(error) },
  );
  // Published until heard: the subscription reaches Redis asynchronously.
  await vi.waitFor(() => {
    handle.pubsub.publish("ping", { n: 1 });
    expect(seen).toContain(1);
  });
  handle.pubsub.publish("ping", { n: 2 });
  handle.pubsub.publish("ping", { n: 3 });
  await vi.waitFor(() => expect(seen).toContain(3));
  expect(errors).toEqual([new Error("payload 2 fails")]);

  await redis.stop();
  await vi.waitFor(() => expect(ends).toBe(1), { timeout: 10_000 });
  await redis.start();
  await vi.waitFor(
    () => {
      handle.pubsub.publish("ping", { n: 4 });
      expect(seen).toContain(4);
    },
    { timeout: 20_000, interval: 200 },
  );
  expect(subscriptions.slice(0, 2)).toEqual([false, true]);

  await following.close();
  expect(ends).toBeGreaterThanOrEqual(2);
  await handle.close();
}, 40_000);
