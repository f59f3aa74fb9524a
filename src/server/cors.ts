import type { IncomingHttpHeaders } from "node:http";
import type { MiddlewareHandler } from "hono";
import { hostAllowed } from "./hosts.ts";
import { setAnsweredHeader } from "./answered-headers.ts";
import { CSRF_HEADERS } from "./csrf.ts";

/**
 * The one CORS policy (CORS_ORIGINS) for REST, /graphql, SSE and WebSocket upgrades. Authentication is by header
 * (`Authorization: Token …`), never by cookie, so no response allows credentials and `*` is safe to offer.
 */
export interface CorsPolicy {
  corsOrigins: readonly string[];
  allowedHosts: readonly string[];
  publicUrl?: string;
}

const ALLOW_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const ALLOW_HEADERS = ["accept", "authorization", "content-type", "x-request-id", "last-event-id", ...CSRF_HEADERS].join(", ");
/** What a page needs to read besides the CORS-safelisted headers: paging, request ids, throttling. */
const EXPOSE_HEADERS = "Link, X-Result-Count, X-Request-ID, Retry-After, WWW-Authenticate";
const PREFLIGHT_MAX_AGE_SECONDS = "600";

/** The Access-Control-Allow-Origin value for a request from `origin`, or null when that origin is not listed. */
export function allowOriginFor(policy: Pick<CorsPolicy, "corsOrigins">, origin: string | undefined): string | null {
  if (!origin) return null;
  if (policy.corsOrigins.includes("*")) return "*";
  return policy.corsOrigins.includes(origin) ? origin : null;
}

const isPreflight = (method: string, origin: string | undefined, requestMethod: string | undefined) =>
  method === "OPTIONS" && Boolean(origin) && Boolean(requestMethod);

/**
 * Preflights are answered here, before routing and authentication (204; the CORS headers only for a listed origin).
 * Other responses to a listed origin carry Access-Control-Allow-Origin; to any other origin, nothing (same-origin only).
 */
export const corsMiddleware = (policy: CorsPolicy): MiddlewareHandler =>
  async function cors(c, next) {
    const origin = c.req.header("origin");
    const allowOrigin = allowOriginFor(policy, origin);
    const vary = allowOrigin !== "*" && policy.corsOrigins.length > 0;
    if (isPreflight(c.req.method, origin, c.req.header("access-control-request-method"))) {
      const headers: Record<string, string> = vary ? { Vary: "Origin" } : {};
      if (allowOrigin) {
        Object.assign(headers, {
          "Access-Control-Allow-Origin": allowOrigin,
          "Access-Control-Allow-Methods": ALLOW_METHODS,
          "Access-Control-Allow-Headers": ALLOW_HEADERS,
          "Access-Control-Max-Age": PREFLIGHT_MAX_AGE_SECONDS,
        });
      }
      return c.body(null, 204, headers);
    }
    await next();
    if (vary) setAnsweredHeader(c, "Vary", "Origin", { append: true });
    if (!allowOrigin) return;
    setAnsweredHeader(c, "Access-Control-Allow-Origin", allowOrigin);
    setAnsweredHeader(c, "Access-Control-Expose-Headers", EXPOSE_HEADERS);
  };

/** An Origin naming the host the request was sent to (any scheme: TLS may end at a proxy), or PUBLIC_URL's origin. */
function sameOrigin(policy: CorsPolicy, origin: string, host: string | undefined): boolean {
  if (policy.publicUrl && new URL(policy.publicUrl).origin === origin) return true;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  return host !== undefined && originHost === host.trim().toLowerCase();
}

/**
 * Whether a WebSocket upgrade may proceed: an allowed Host, and an Origin that is the API's own, listed, or absent
 * (browsers always send one; other clients need not). Browsers apply no CORS to WebSockets, so this is the check.
 */
export function upgradeAllowed(policy: CorsPolicy, headers: IncomingHttpHeaders): boolean {
  if (!hostAllowed(policy.allowedHosts, headers.host)) return false;
  const origin = headers.origin;
  if (origin === undefined) return true;
  return sameOrigin(policy, origin, headers.host) || allowOriginFor(policy, origin) !== null;
}
