import type { Topics } from "../platform/messaging/topics.ts";
import { followTopic, type PubSub } from "../platform/messaging/pubsub.ts";
import type { Grant, GrantsStore } from "./grants.ts";

/** Empties `cache` once the change recorded as `event` commits, when it changes grants (the writing instance's own). */
export const clearGrantsAfter = (cache: GrantsCache, outbox: { afterCommit(notify: () => void): void }, eventType: string) => {
  if (GRANT_CHANGING_EVENTS.has(eventType)) outbox.afterCommit(() => cache.clear());
};

/** Event types after which cached grants may be wrong: a role given or ended, or a customer's projects changed. */
export const GRANT_CHANGING_EVENTS: ReadonlySet<string> = new Set(["role_granted", "role_revoked", "project_creation_succeeded"]);

const MAX_ENTRIES = 10_000;

/**
 * Users' grants recently read, for `ttlMs` (TOKEN_CACHE_MS), so a busy caller's roles cost no lookup per request.
 * Any change of grants or projects through the gateway empties it on every instance (after its commit here, and on
 * `eventCreated` elsewhere); `ttlMs` bounds what a lost message or a change made outside the gateway leaves behind.
 * Expiry is checked on every read, so a grant that runs out while cached is gone at once.
 */
export class GrantsCache implements GrantsStore {
  private readonly entries = new Map<string, { grants: Grant[]; until: number }>();
  /** Moves on with every `clear`: grants read before a clear are not kept after it (they may predate the change). */
  private generation = 0;

  constructor(readonly ttlMs: number) {}

  /** Call before reading grants from the database; hand the answer to `set`. */
  readStarts(): number {
    return this.generation;
  }

  get(userId: string, now: Date): Grant[] | undefined {
    const entry = this.entries.get(userId);
    if (!entry) return undefined;
    if (entry.until <= now.getTime()) {
      this.entries.delete(userId);
      return undefined;
    }
    return entry.grants.filter((grant) => grant.expirationTime === null || grant.expirationTime > now);
  }

  set(userId: string, grants: Grant[], now: Date, readStarted: number) {
    if (this.ttlMs <= 0 || readStarted !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value ?? userId);
    this.entries.set(userId, { grants, until: now.getTime() + this.ttlMs });
  }

  clear() {
    this.generation += 1;
    this.entries.clear();
  }
}

/**
 * Empties `cache` on every recorded event that changes grants, wherever it was recorded (`eventCreated` reaches
 * every instance over Redis), and again whenever the feed breaks and comes back (a Redis outage may have lost
 * some). Returns the stop.
 */
export function watchGrantChanges(pubsub: PubSub<Pick<Topics, "eventCreated">>, cache: GrantsCache): () => void {
  const clearOn = (event: Topics["eventCreated"]) => {
    if (GRANT_CHANGING_EVENTS.has(event.eventType)) cache.clear();
  };
  const following = followTopic(pubsub, "eventCreated", clearOn, { onSubscribe: () => cache.clear(), onEnd: () => cache.clear() });
  return () => void following.close();
}
