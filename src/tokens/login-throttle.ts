import { createHash } from "node:crypto";
import type { Context } from "../context.ts";
import { FAIL_OPEN, type RateLimitSettings, throttled } from "../platform/throttling/rate-limit.ts";
import type { BucketLimit } from "../platform/throttling/token-bucket.ts";

/** Each username's failed logins: `loginFailuresPerUsername` at once, coming back over the window; undefined when off. */
export function loginFailureBucket(settings: RateLimitSettings): BucketLimit | undefined {
  const { loginFailuresPerUsername: failures, loginFailureWindowSeconds: seconds } = settings;
  return failures ? { capacity: failures, refillPerSecond: failures / seconds } : undefined;
}

export interface LoginAttempt {
  /** A successful login gives its token back: only failures count. */
  succeeded(): Promise<void>;
}

const NOT_THROTTLED: LoginAttempt = { succeeded: async () => {} };

/**
 * Starts a password login: takes one token from the username's bucket, or throws DRF's 429 when it is empty, whatever
 * the password (so a locked username cannot be guessed at, even rightly, until a token is back). Keyed by username
 * alone, known or not, so changing addresses does not help and the answer does not tell which usernames exist.
 * Taking before the password is checked means concurrent guesses cannot all pass one check. Fails open with Redis.
 */
export async function loginAttempt(ctx: Context, username: string): Promise<LoginAttempt> {
  const limit = loginFailureBucket(ctx.config);
  if (!limit) return NOT_THROTTLED;
  const key = `login-failures:${createHash("sha256").update(username).digest("hex").slice(0, 32)}`;
  const draw = await ctx.buckets.take(key, limit, 1, ctx.now().getTime()).catch(() => FAIL_OPEN);
  if (!draw.taken) throw throttled(draw.waitSeconds);
  return {
    succeeded: () => ctx.buckets.take(key, limit, -1, ctx.now().getTime()).then(() => undefined, () => undefined),
  };
}
