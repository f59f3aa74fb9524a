import { randomUUID } from "node:crypto";
import { Access, type Viewer } from "./auth/access.ts";
import { grantsOf } from "./auth/grants.ts";
import { authenticate } from "./auth/authenticate.ts";
import type { Config } from "./platform/settings/config.ts";
import type { Db } from "./platform/database/connect.ts";
import { type DomainError, unauthenticated } from "./platform/errors.ts";
import type { PubSub } from "./platform/messaging/pubsub.ts";
import type { TokenSessions } from "./auth/tokens-sessions.ts";
import type { Topics } from "./platform/messaging/topics.ts";
import type { TokenBuckets } from "./platform/throttling/token-bucket.ts";
import type { BrokerManagement } from "./broker/management.ts";
import type { WriteGate, Writes } from "./platform/database/write-gate.ts";

export interface BrokerDeps {
  /** Provisioning: vhosts, logins, queues. */
  management: BrokerManagement;
  /** Tells this instance's relay that messages were committed to the broker outbox. */
  wake(): void;
}


/** The absolute base of the URLs we answer with: PUBLIC_URL, else the origin the request was sent to. */
export const baseUrlOf = (publicUrl: string | undefined, requestUrl: string) => publicUrl ?? new URL(requestUrl).origin;

/** What every request shares: built once at start-up. */
export interface AppDeps {
  db: Db;
  pubsub: PubSub<Topics>;
  config: Config;
  now: () => Date;
  /** The throttles' token buckets (mutation rate limit, login failures): in Redis when configured. */
  buckets: TokenBuckets;
  /** The WebSockets and SSE streams open on this instance, by token (revocation, expiry, per-user cap). */
  sessions: TokenSessions;
  /** The site agents' RabbitMQ, when one is configured. */
  broker: BrokerDeps | undefined;
  /** The server's writes, which the end of a shutdown's grace period stops (a context's `writes` begin here). */
  writeGate: WriteGate;
}

/** Built once per HTTP request or WebSocket connection, for REST and GraphQL alike. */
export interface Context extends AppDeps {
  viewer: Viewer | null;
  /** The digest of the token that authenticated the viewer (logout revokes it). */
  tokenDigest: string | null;
  /** The token key itself: a site agent's broker login has it as its password (the agent's STOMP passcode). */
  tokenKey: string | null;
  access: Access;
  requestId: string;
  /** Origin used for absolute `url` fields (PUBLIC_URL, else the request's own origin). */
  baseUrl: string;
  /** The caller's address, recorded in audit events. */
  ipAddress: string | null;
  /**
   * Bytes written to the client's connection that the network has not taken yet (it is full: the client stopped
   * reading, or reads slower than we write); for a WebSocket or an SSE stream, undefined for other requests.
   */
  unsentBytes?: () => number;
  /** Throws the authentication failure (401) when the request is anonymous or its token is bad. */
  requireViewer(): Viewer;
  /** One value per request and key (per-request loaders and caches). */
  memo<T>(key: string, create: () => T): T;
  /** Where this request's writes begin (`transact`, `runWrite`): its own scope of `writeGate`, or the gate itself. */
  writes: Writes;
  /** The HTTP request an operation serves, for the GraphQL plugins that observe it (yoga's context has it too). */
  request?: Request;
}

export interface RequestInfo {
  authorization: string | null | undefined;
  url: string;
  requestId?: string | null;
  ipAddress?: string | null;
  /** The request's own scope of the server's writes (src/server/stopped-requests.ts); the server's gate otherwise. */
  writes?: Writes;
  /** What the client's connection holds that the network has not taken (graphql-ws, SSE): 0 while it keeps up. */
  unsentBytes?: () => number;
  /** The HTTP request itself (none for a WebSocket's operations). */
  request?: Request;
}

export async function buildContext(deps: AppDeps, request: RequestInfo): Promise<Context> {
  const { viewer, failure, tokenDigest, tokenKey } = await authenticate(deps.db, request.authorization, deps.now(), deps.sessions.authentications);
  return contextFor(deps, viewer, failure, { tokenDigest, tokenKey, ...request });
}

export function contextFor(
  deps: AppDeps,
  viewer: Viewer | null,
  failure: DomainError | undefined,
  request: Omit<RequestInfo, "authorization"> & { tokenDigest?: string; tokenKey?: string },
): Context {
  // V8 (Node 20) adds each property written after a spread at ~1 µs apiece; spread last, the copy is one step. The
  // request's own fields and the shared deps have no key in common.
  return {
    viewer,
    tokenDigest: request.tokenDigest ?? null,
    tokenKey: request.tokenKey ?? null,
    access: new Access(deps.db, viewer, deps.now, (userId) => grantsOf(deps.db, userId, deps.now(), deps.sessions.grants)),
    requestId: request.requestId || randomUUID(),
    baseUrl: baseUrlOf(deps.config.publicUrl, request.url),
    ipAddress: request.ipAddress ?? null,
    unsentBytes: request.unsentBytes,
    requireViewer() {
      if (failure) throw failure;
      if (!viewer) throw unauthenticated();
      return viewer;
    },
    memo: memoTable(),
    writes: request.writes ?? deps.writeGate,
    request: request.request,
    ...deps,
  };
}

/** One value per key, made on first use: a context's `memo`. */
export function memoTable(): Context["memo"] {
  const memos = new Map<string, unknown>();
  return <T>(key: string, create: () => T): T => {
    if (!memos.has(key)) memos.set(key, create());
    return memos.get(key) as T;
  };
}
