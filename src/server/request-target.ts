import type { MiddlewareHandler } from "hono";

/**
 * The longest request-target (path and query string) served: 8 KiB, what nginx in front of Waldur accepts by default
 * (`large_client_header_buffers 4 8k`). Longer URIs would also come back in Link headers and overflow the 16 KiB of
 * response headers Node's clients (undici, so `fetch`) read.
 */
export const MAX_REQUEST_TARGET_BYTES = 8192;

export const URI_TOO_LONG = { detail: "Request URI too long." };

/**
 * The request-target as the client sent it: the URL without scheme and authority. Its length is its size in bytes:
 * Node hands the raw target over as a latin1 string, and a parsed URL is percent-encoded ASCII.
 */
function requestTargetLength(url: string): number {
  const authority = url.indexOf("://");
  const path = url.indexOf("/", authority === -1 ? 0 : authority + 3);
  return path === -1 ? 1 : url.length - path;
}

/** 414 before any routing, REST or GraphQL work for a request-target longer than MAX_REQUEST_TARGET_BYTES. */
export const limitRequestTarget = (maxBytes = MAX_REQUEST_TARGET_BYTES): MiddlewareHandler =>
  async function limitRequestTarget(c, next) {
    if (requestTargetLength(c.req.url) > maxBytes) return c.json(URI_TOO_LONG, 414);
    await next();
  };
