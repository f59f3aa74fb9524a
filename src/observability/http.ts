import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { Logger } from "./logger.ts";
import type { GatewayMetrics } from "./metrics.ts";
import { REQUEST_ID_HEADER, requestIdFrom } from "./request-id.ts";
import { openRequestScope, type RequestScope } from "./request-scope.ts";

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const PROBE_PATHS = new Set(["/health", "/health/ready", "/metrics"]);
const SOURCE_BY_PATH: Record<string, RequestScope["source"]> = { "/graphql": "graphql" };
const UNMATCHED_ROUTE = "unmatched";

/** Answered by a middleware of every path (this one, the request-target limit) rather than by a route. */
const isAppWideMiddleware = (responder: { method: string; path: string }) => responder.method === "ALL" && responder.path === "/*";

export interface HttpObservationOptions {
  logger: Logger;
  metrics: GatewayMetrics;
  /** One label per route whatever the spelling it matched (REST paths answer with and without their slash). */
  canonicalRoute?: (pattern: string) => string;
}

/**
 * First middleware of the app: settles the request id (the context reads it from the request's header)
 * and echoes it, then writes one log line and the HTTP metrics per request. Probes log at debug level.
 */
export function observeHttp({ logger, metrics, canonicalRoute = (pattern) => pattern }: HttpObservationOptions): MiddlewareHandler {
  return async function observeRequest(c, next) {
    const started = performance.now();
    const requestId = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    c.req.raw.headers.set(REQUEST_ID_HEADER, requestId);
    const scope: RequestScope = { requestId, source: SOURCE_BY_PATH[c.req.path] ?? "rest", operations: [], errors: new Set() };
    openRequestScope(c.req.raw, scope);
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
    if (c.error) scope.errors.add(c.error);

    const durationMs = performance.now() - started;
    const responder = matchedRoutes(c)[c.req.routeIndex];
    const route = !responder || isAppWideMiddleware(responder) ? UNMATCHED_ROUTE : canonicalRoute(responder.path);
    const status = c.res.status;
    const method = KNOWN_METHODS.has(c.req.method) ? c.req.method : "other";
    metrics.recordHttpRequest({ method, route, status: String(status) }, durationMs / 1000);

    const [err] = scope.errors;
    const level = err !== undefined || status >= 500 ? "error" : PROBE_PATHS.has(c.req.path) ? "debug" : "info";
    logger[level](
      {
        requestId,
        method: c.req.method,
        path: c.req.path,
        route,
        status,
        durationMs: Math.round(durationMs * 10) / 10,
        operation: scope.operations.join(",") || undefined,
        err,
      },
      "request",
    );
  };
}
