import type { Db } from "../platform/database/connect.ts";
import { followTopic, type PubSub } from "../platform/messaging/pubsub.ts";
import { isExpired } from "./authenticate.ts";
import type { TokenRevokedPayload } from "./token-revoked.ts";
import { GrantsCache } from "./grants-cache.ts";
import { TokenCache } from "./token-cache.ts";
import { findMany } from "../platform/reads/sql/find.ts";

/** Why an open connection or stream is ended, and what its client is told. */
export const SESSION_END = {
  revoked: "Token has been revoked.",
  expired: "Token has expired.",
  inactive: "User inactive or deleted.",
} as const;
export type SessionEnd = keyof typeof SESSION_END;

/** graphql-ws close codes (4400–4499 are the protocol's client-error range). */
export const SOCKET_CLOSE = {
  unauthorized: 4401,
  tooManyConnections: 4429,
} as const;
export const TOO_MANY_CONNECTIONS = "Too many connections.";

interface Session {
  userId: string;
  release(): void;
  end(reason: SessionEnd): void;
}

/**
 * The graphql-ws connections and SSE subscription streams open on this instance, filed under the token that
 * authenticated them, so revoking or expiring a token ends them, and counted per user for the cap
 * (GRAPHQL_WS_MAX_CONNECTIONS_PER_USER, per instance).
 */
export class TokenSessions {
  private readonly byToken = new Map<string, Set<Session>>();
  private readonly perUser = new Map<string, number>();
  /** Tokens recently found valid on this instance; what ends a token's sessions drops it too. */
  readonly authentications: TokenCache;
  /** Users' grants recently read on this instance, for as long (TOKEN_CACHE_MS). */
  readonly grants: GrantsCache;

  constructor(
    readonly maxPerUser: number,
    tokenCacheMs = 0,
  ) {
    this.authentications = new TokenCache(tokenCacheMs);
    this.grants = new GrantsCache(tokenCacheMs);
  }

  /**
   * Files a connection or stream; `end` is called (once) when its token is revoked or expires. Returns the
   * release to call when it closes by itself, or null when its user already holds `maxPerUser` here.
   */
  open(userId: string, tokenDigest: string, end: (reason: SessionEnd) => void): (() => void) | null {
    const held = this.perUser.get(userId) ?? 0;
    if (held >= this.maxPerUser) return null;
    this.perUser.set(userId, held + 1);
    const sessions = this.byToken.get(tokenDigest) ?? new Set<Session>();
    this.byToken.set(tokenDigest, sessions);
    let released = false;
    const session: Session = {
      userId,
      end,
      release: () => {
        if (released) return;
        released = true;
        sessions.delete(session);
        if (!sessions.size) this.byToken.delete(tokenDigest);
        const left = (this.perUser.get(userId) ?? 1) - 1;
        if (left > 0) this.perUser.set(userId, left);
        else this.perUser.delete(userId);
      },
    };
    sessions.add(session);
    return session.release;
  }

  /** Ends (and releases) every session of these tokens. */
  end(tokenDigests: Iterable<string>, reason: SessionEnd) {
    for (const digest of tokenDigests) {
      this.authentications.forget([digest]);
      for (const session of [...(this.byToken.get(digest) ?? [])]) {
        session.release();
        session.end(reason);
      }
    }
  }

  /** The tokens that have something open here. */
  tokens(): string[] {
    return [...this.byToken.keys()];
  }

  /** Open sessions of one user on this instance. */
  heldBy(userId: string): number {
    return this.perUser.get(userId) ?? 0;
  }
}

type TokenState = { lastUsed: Date; user: { isActive: boolean; tokenLifetime: number | null } };

/** Why a token no longer authenticates (as authenticate.ts would refuse it), or null while it does. */
function endOf(token: TokenState | undefined, now: Date): SessionEnd | null {
  if (!token) return "revoked";
  if (!token.user.isActive) return "inactive";
  return isExpired(token.lastUsed, token.user.tokenLifetime, now) ? "expired" : null;
}

const SWEEP_BATCH = 1000;

export interface TokenWatch {
  /** Checks the tokens of every open session once: gone or deactivated (revoked) or idle too long (expired). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Ends sessions whose token another request (here or on another instance, through `tokenRevoked`) revoked, and
 * re-reads the open sessions' tokens every `intervalMs`: that catches idle expiry, deactivated users, and a
 * revocation whose message was lost (a Redis outage).
 */
export function watchTokenSessions(
  deps: { db: Db; pubsub: PubSub<{ tokenRevoked: TokenRevokedPayload }>; now: () => Date },
  sessions: TokenSessions,
  intervalMs: number,
  onError: (error: unknown) => void = () => {},
): TokenWatch {
  const sweep = async () => {
    const digests = sessions.tokens();
    for (let start = 0; start < digests.length; start += SWEEP_BATCH) {
      const batch = digests.slice(start, start + SWEEP_BATCH);
      const rows = await findMany(deps.db, "authToken", {
        where: { keyDigest: { in: batch } },
        select: { keyDigest: true, lastUsed: true, user: { select: { isActive: true, tokenLifetime: true } } },
      });
      const found = new Map(rows.map((row) => [row.keyDigest, row]));
      const now = deps.now();
      for (const digest of batch) {
        const reason = endOf(found.get(digest), now);
        if (reason) sessions.end([digest], reason);
      }
    }
  };
  // Revocations published while the feed was down were lost: check every open session's token instead.
  const following = followTopic(deps.pubsub, "tokenRevoked", (revoked) => sessions.end(revoked.tokenDigests, revoked.reason), {
    onSubscribe: (again) => {
      if (again) void sweep().catch(onError);
    },
    onError,
  });
  const timer = setInterval(() => void sweep().catch(onError), intervalMs);
  timer.unref();

  return {
    sweep,
    async close() {
      clearInterval(timer);
      await following.close();
    },
  };
}
