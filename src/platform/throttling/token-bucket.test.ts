import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { memoryBuckets, redisBuckets, type TokenBuckets } from "./token-bucket.ts";

const LIMIT = { capacity: 10, refillPerSecond: 2 };

function behaves(open: () => TokenBuckets) {
  const buckets = open();
  afterAll(() => buckets.close());
  let n = 0;
  const key = () => `test-${++n}`;

  it("starts full, refuses what it does not hold (taking nothing) and says when it will", async () => {
    const k = key();
    expect(await buckets.take(k, LIMIT, 7, 0)).toEqual({ taken: true });
    expect(await buckets.take(k, LIMIT, 4, 0)).toEqual({ taken: false, waitSeconds: 1 });
    expect(await buckets.take(k, LIMIT, 3, 0)).toEqual({ taken: true });
    expect(await buckets.take(k, LIMIT, 5, 0)).toEqual({ taken: false, waitSeconds: 3 });
  });

  it("refills at its rate, never beyond its capacity", async () => {
    const k = key();
    await buckets.take(k, LIMIT, 10, 0);
    expect(await buckets.take(k, LIMIT, 1, 400)).toEqual({ taken: false, waitSeconds: 1 });
    expect(await buckets.take(k, LIMIT, 1, 500)).toEqual({ taken: true });
    expect(await buckets.take(k, LIMIT, 11, 3_600_000)).toMatchObject({ taken: false });
    expect(await buckets.take(k, LIMIT, 10, 3_600_000)).toEqual({ taken: true });
  });

  it("a negative cost puts tokens back, up to the capacity", async () => {
    const k = key();
    await buckets.take(k, LIMIT, 10, 0);
    await buckets.take(k, LIMIT, -3, 0);
    expect(await buckets.take(k, LIMIT, 3, 0)).toEqual({ taken: true });
    await buckets.take(k, LIMIT, -100, 0);
    expect(await buckets.take(k, LIMIT, 11, 0)).toMatchObject({ taken: false });
  });

  it("a clock behind the last take adds nothing (instances whose clocks differ)", async () => {
    const k = key();
    await buckets.take(k, LIMIT, 10, 10_000);
    expect(await buckets.take(k, LIMIT, 1, 5_000)).toMatchObject({ taken: false });
    expect(await buckets.take(k, LIMIT, 1, 10_500)).toEqual({ taken: true });
  });

  it("concurrent takes never spend more than the bucket holds", async () => {
    const k = key();
    const draws = await Promise.all(Array.from({ length: 40 }, () => buckets.take(k, LIMIT, 1, 0)));
    expect(draws.filter((draw) => draw.taken)).toHaveLength(10);
  });
}

describe("in memory", () => {
  behaves(() => memoryBuckets());

  it("forgets refilled buckets once many keys are held", async () => {
    const buckets = memoryBuckets(3);
    for (const k of ["a", "b", "c"]) await buckets.take(k, LIMIT, 10, 0);
    await buckets.take("d", LIMIT, 10, 10_000);
    // a, b and c were full again at 5 s and were dropped: they start full, as they would have been.
    expect(await buckets.take("a", LIMIT, 10, 10_000)).toEqual({ taken: true });
    expect(await buckets.take("d", LIMIT, 1, 10_000)).toMatchObject({ taken: false });
  });
});

describe.runIf(process.env.REDIS_URL)("in Redis", () => {
  const prefix = `bucket-test-${randomBytes(4).toString("hex")}`;
  behaves(() => redisBuckets(process.env.REDIS_URL!, prefix));

  it("two instances draw on one bucket, atomically", async () => {
    const [one, two] = [redisBuckets(process.env.REDIS_URL!, prefix), redisBuckets(process.env.REDIS_URL!, prefix)];
    try {
      const draws = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? one : two).take("shared", LIMIT, 1, 0)));
      expect(draws.filter((draw) => draw.taken)).toHaveLength(10);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("an idle bucket's key expires once it would be full again", async () => {
    const { Redis } = await import("ioredis");
    const redis = new Redis(process.env.REDIS_URL!);
    const buckets = redisBuckets(process.env.REDIS_URL!, prefix);
    try {
      await buckets.take("expiring", LIMIT, 4, Date.now());
      const ttl = await redis.pttl(`${prefix}:bucket:expiring`);
      expect(ttl).toBeGreaterThan(2_000);
      expect(ttl).toBeLessThanOrEqual(3_000);
    } finally {
      await buckets.close();
      redis.disconnect();
    }
  });
});

describe("when Redis does not answer", () => {
  it("take rejects within about a second (callers fail open)", async () => {
    const buckets = redisBuckets("redis://127.0.0.1:1", "unreachable");
    const started = Date.now();
    await expect(buckets.take("k", LIMIT, 1, 0)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    await buckets.close();
  });
});
