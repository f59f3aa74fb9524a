import type { MiddlewareHandler } from "hono";

export const INVALID_HOST = { detail: "Invalid host header." };

/** Probes and scrapers address an instance by its own IP (Kubernetes, Prometheus) and these paths build no URLs. */
const ANY_HOST_PATHS = new Set(["/health", "/health/ready", "/metrics"]);

/** The domain of a Host header value (`example.org:8000` → `example.org`, `[::1]:80` → `[::1]`), lowercase, no final dot. */
export function domainOf(host: string): string {
  const value = host.trim().toLowerCase();
  const end = value.startsWith("[") ? value.indexOf("]") + 1 : value.lastIndexOf(":");
  const domain = end > 0 ? value.slice(0, end) : value;
  return domain.endsWith(".") ? domain.slice(0, -1) : domain;
}

/** Django's `validate_host`: `*` matches any host, `.example.org` it and every subdomain, anything else exactly. */
export function hostAllowed(patterns: readonly string[], host: string | undefined): boolean {
  if (patterns.includes("*")) return true;
  if (!host) return false;
  const domain = domainOf(host);
  if (!domain) return false;
  return patterns.some(
    (pattern) => pattern === domain || (pattern.startsWith(".") && (domain.endsWith(pattern) || domain === pattern.slice(1))),
  );
}

/**
 * 400 `{"detail": "Invalid host header."}` for a request whose Host is not in ALLOWED_HOSTS: absolute URLs and Link
 * headers are built from it when PUBLIC_URL is unset, so a forged Host must not get that far.
 */
export function allowedHostsOnly(patterns: readonly string[]): MiddlewareHandler {
  const anyHost = patterns.includes("*");
  return async function allowedHostsOnly(c, next) {
    if (anyHost || ANY_HOST_PATHS.has(c.req.path)) return next();
    if (!hostAllowed(patterns, new URL(c.req.url).host)) return c.json(INVALID_HOST, 400);
    await next();
  };
}
