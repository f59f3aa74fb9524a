import { getOperationAST, GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { Redis } from "ioredis";
import type { AppDeps, Context } from "../context.ts";
import { ErrorCode } from "./errors.ts";

export interface RateLimitSettings {
  /** Mutations one caller may run per window; 0 switches the limit off. */
  rateLimitMutations: number;
  rateLimitWindowSeconds: number;
}

function integerAtLeast(minimum: number, env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be an integer ≥ ${minimum}`);
  return value;
}

export function loadRateLimitSettings(env: NodeJS.ProcessEnv = process.env): RateLimitSettings {
  return {
    rateLimitMutations: integerAtLeast(0, env, "RATE_LIMIT_MUTATIONS", 120),
    rateLimitWindowSeconds: integerAtLeast(1, env, "RATE_LIMIT_WINDOW_SECONDS", 60),
  };
}

/** Calls per key in fixed windows; `hit` answers the count including this call. */
interface WindowCounter {
  hit(key: string, window: number, windowSeconds: number): Promise<number>;
  close(): Promise<void>;
}

/** One process's budget: every key's count in the current window (older windows are dropped as a whole). */
function memoryCounter(): WindowCounter {
  let current = Number.NaN;
  let counts = new Map<string, number>();
  return {
    async hit(key, window) {
      if (window !== current) {
        current = window;
        counts = new Map();
      }
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return count;
    },
    async close() {},
  };
}

/** A budget shared by every instance on one Redis: INCR of `<prefix>:rate-limit:<key>:<window>`, expiring after the window. */
function redisCounter(url: string, prefix: string): WindowCounter {
  let client: Redis | undefined;
  const connect = () => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1_000 });
    // The pub/sub connections to the same Redis report outages; here a failed count lets the call through.
    redis.on("error", () => {});
    // Closed by yoga.dispose(); until then the connection alone does not keep the process alive.
    redis.on("connect", () => redis.stream.unref());
    return redis;
  };
  return {
    async hit(key, window, windowSeconds) {
      client ??= connect();
      const name = `${prefix}:rate-limit:${key}:${window}`;
      const replies = await client.multi().incr(name).expire(name, windowSeconds + 1).exec();
      const [error, count] = replies?.[0] ?? [new Error("no reply"), 0];
      if (error) throw error;
      return Number(count);
    },
    async close() {
      client?.disconnect();
      client = undefined;
    },
  };
}

/** DRF's Throttled exception: its message, and the wait as Retry-After (yoga and the REST adapter send extensions.http). */
export function throttled(waitSeconds: number): GraphQLError {
  const unit = waitSeconds === 1 ? "second" : "seconds";
  return new GraphQLError(`Request was throttled. Expected available in ${waitSeconds} ${unit}.`, {
    extensions: {
      code: ErrorCode.RATE_LIMITED,
      retryAfter: waitSeconds,
      http: { status: 429, headers: { "Retry-After": String(waitSeconds) } },
    },
  });
}

/** Authenticated callers are counted per user, so minting more tokens does not add budget; anonymous ones per address. */
const callerKey = (ctx: Context) => (ctx.viewer ? `user:${ctx.viewer.id}` : `address:${ctx.ipAddress ?? "unknown"}`);

/**
 * Counts mutations per caller and refuses those beyond the budget before they run. An envelop plugin, so
 * GraphQL over HTTP, graphql-ws and every REST write route (each runs a mutation through yoga) share one budget.
 * Counting fails open: when Redis does not answer, the mutation runs.
 */
export function mutationRateLimit(deps: AppDeps): Plugin<Context> {
  const { rateLimitMutations: limit, rateLimitWindowSeconds: windowSeconds, redisUrl, pubsubPrefix } = deps.config;
  if (!limit) return {};
  const counter = redisUrl ? redisCounter(redisUrl, pubsubPrefix) : memoryCounter();
  const windowMs = windowSeconds * 1000;
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== "mutation") return;
      const now = deps.now().getTime();
      const window = Math.floor(now / windowMs);
      const count = await counter.hit(callerKey(args.contextValue), window, windowSeconds).catch(() => 0);
      if (count <= limit) return;
      setResultAndStopExecution({ errors: [throttled(Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000)))] });
    },
    onDispose: () => counter.close(),
  };
}
