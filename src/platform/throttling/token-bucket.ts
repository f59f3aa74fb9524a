import { Redis, type Result } from "ioredis";

/** A bucket holds at most `capacity` tokens and gains `refillPerSecond` of them each second. */
export interface BucketLimit {
  capacity: number;
  refillPerSecond: number;
}

/** Taken, or refused (nothing taken) with the seconds until the bucket will hold enough. */
export type Draw = { taken: true } | { taken: false; waitSeconds: number };

/**
 * Token buckets by key. `take` removes `cost` tokens when the bucket holds that many and otherwise removes none;
 * a negative cost puts tokens back (never beyond the capacity). An absent bucket is full.
 */
export interface TokenBuckets {
  take(key: string, limit: BucketLimit, cost: number, nowMs: number): Promise<Draw>;
  close(): Promise<void>;
}

/** What a refill's rounding may leave missing: 0.9999999999 tokens are one, and 1.0000000001 s of waiting is 1 s. */
const ROUNDING = 1e-9;

const waitFor = (limit: BucketLimit, missing: number): Draw => ({
  taken: false,
  waitSeconds: Math.max(1, Math.ceil(missing / limit.refillPerSecond - ROUNDING)),
});

/** Milliseconds after which an untouched bucket is full again, so its state can be forgotten. */
const refillMs = (limit: BucketLimit, tokens: number) => ((limit.capacity - tokens) / limit.refillPerSecond) * 1000;

/**
 * One process's buckets. Buckets that have refilled are swept when the map has doubled since the last sweep (and
 * holds more than `sweepAbove`), so keys cannot pile up and sweeping costs O(1) a take on average.
 */
export function memoryBuckets(sweepAbove = 10_000): TokenBuckets {
  const buckets = new Map<string, { tokens: number; at: number; fullAt: number }>();
  let sweepAt = sweepAbove;
  const sweep = (nowMs: number) => {
    for (const [key, bucket] of buckets) if (bucket.fullAt <= nowMs) buckets.delete(key);
    sweepAt = Math.max(sweepAbove, buckets.size * 2);
  };
  return {
    async take(key, limit, cost, nowMs) {
      const bucket = buckets.get(key);
      const at = Math.max(nowMs, bucket?.at ?? nowMs);
      const tokens = bucket ? Math.min(limit.capacity, bucket.tokens + ((at - bucket.at) / 1000) * limit.refillPerSecond) : limit.capacity;
      if (tokens + ROUNDING < cost) return waitFor(limit, cost - tokens);
      const left = Math.max(0, Math.min(limit.capacity, tokens - cost));
      buckets.set(key, { tokens: left, at, fullAt: at + refillMs(limit, left) });
      if (buckets.size > sweepAt) sweep(nowMs);
      return { taken: true };
    },
    async close() {
      buckets.clear();
    },
  };
}

/**
 * The same bucket in Redis, one hash per key (`tokens`, `at`), read and written by one script so that concurrent
 * instances never both spend the last tokens. The callers' clocks are used (a clock behind the stored `at` adds
 * nothing), and the key expires once the bucket would be full.
 */
const TAKE_SCRIPT = `
local capacity, rate, now, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
if now > at then
  tokens = math.min(capacity, tokens + (now - at) / 1000 * rate)
  at = now
end
if tokens + 1e-9 < cost then return {0, string.format('%.17g', tokens)} end
tokens = math.max(0, math.min(capacity, tokens - cost))
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', at))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / rate * 1000) + 1000)
return {1, string.format('%.17g', tokens)}
`;

declare module "ioredis" {
  interface RedisCommander<Context> {
    takeTokens(key: string, capacity: number, rate: number, now: number, cost: number): Result<[number, string], Context>;
  }
}

/** Buckets shared by every instance on one Redis, under `<prefix>:bucket:<key>`. Errors reach the caller. */
export function redisBuckets(url: string, prefix: string): TokenBuckets {
  let client: Redis | undefined;
  const connect = () => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1_000 });
    redis.defineCommand("takeTokens", { numberOfKeys: 1, lua: TAKE_SCRIPT });
    // The pub/sub connections to the same Redis report outages; callers decide what a failed take means.
    redis.on("error", () => {});
    // Closed by close(); until then the connection alone does not keep the process alive.
    redis.on("connect", () => redis.stream.unref());
    return redis;
  };
  return {
    async take(key, limit, cost, nowMs) {
      client ??= connect();
      const [taken, tokens] = await client.takeTokens(`${prefix}:bucket:${key}`, limit.capacity, limit.refillPerSecond, nowMs, cost);
      return taken ? { taken: true } : waitFor(limit, cost - Number(tokens));
    },
    async close() {
      client?.disconnect();
      client = undefined;
    },
  };
}

/** Redis when configured, else this process's memory. */
export const openTokenBuckets = (redisUrl: string | undefined, prefix: string): TokenBuckets =>
  redisUrl ? redisBuckets(redisUrl, prefix) : memoryBuckets();
