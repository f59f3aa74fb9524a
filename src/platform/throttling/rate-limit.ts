import { GraphQLError } from "graphql";
import { ErrorCode } from "../errors.ts";
import type { BucketLimit, Draw } from "./token-bucket.ts";

export interface RateLimitSettings {
  /** Mutations one caller may run per window on average (the bucket's refill); 0 switches the limit off. */
  rateLimitMutations: number;
  rateLimitWindowSeconds: number;
  /** Mutations one caller may run at once after a quiet spell (the bucket's capacity); unset: `rateLimitMutations`. */
  rateLimitBurst?: number;
  /** Failed password logins per username before logins of that username are refused; 0 switches the throttle off. */
  loginFailuresPerUsername: number;
  /** The failures come back at `loginFailuresPerUsername` per this many seconds. */
  loginFailureWindowSeconds: number;
}

function integerAtLeast(minimum: number, env: NodeJS.ProcessEnv, name: string, fallback: number): number;
function integerAtLeast(minimum: number, env: NodeJS.ProcessEnv, name: string, fallback: undefined): number | undefined;
function integerAtLeast(minimum: number, env: NodeJS.ProcessEnv, name: string, fallback: number | undefined) {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be an integer ≥ ${minimum}`);
  return value;
}

/** 6,000 per minute (100 per second), all of which may be spent at once: no automation that behaves is throttled. */
export function loadRateLimitSettings(env: NodeJS.ProcessEnv = process.env): RateLimitSettings {
  return {
    rateLimitMutations: integerAtLeast(0, env, "RATE_LIMIT_MUTATIONS", 6000),
    rateLimitWindowSeconds: integerAtLeast(1, env, "RATE_LIMIT_WINDOW_SECONDS", 60),
    rateLimitBurst: integerAtLeast(1, env, "RATE_LIMIT_BURST", undefined),
    loginFailuresPerUsername: integerAtLeast(0, env, "LOGIN_FAILURES_PER_USERNAME", 10),
    loginFailureWindowSeconds: integerAtLeast(1, env, "LOGIN_FAILURE_WINDOW_SECONDS", 300),
  };
}

/** The bucket of each caller's mutations, or undefined when the limit is off. */
export function mutationBucket(settings: RateLimitSettings): BucketLimit | undefined {
  const { rateLimitMutations: perWindow, rateLimitWindowSeconds: seconds, rateLimitBurst } = settings;
  return perWindow ? { capacity: rateLimitBurst ?? perWindow, refillPerSecond: perWindow / seconds } : undefined;
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

/** What a bucket that does not answer (Redis down) means: the call goes ahead. */
export const FAIL_OPEN: Draw = { taken: true };
