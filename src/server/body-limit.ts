import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { BODY_TOO_LARGE } from "../platform/errors.ts";

/**
 * 413 for a body over `maxBytes`: at once when Content-Length says so; a chunked body is read up to the limit and no
 * further (hono's bodyLimit), so it cannot grow without bound. A body of a declared length is left unread here: Node's
 * parser delivers exactly that many bytes, and the route reads them straight from the socket rather than through the
 * web stream hono's bodyLimit would open on every request.
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  const chunked = bodyLimit({ maxSize: maxBytes, onError: (c) => c.json(BODY_TOO_LARGE, 413) });
  return async function limitBody(c, next) {
    const declared = c.req.header("content-length");
    if (declared === undefined || c.req.header("transfer-encoding") !== undefined) return chunked(c, next);
    return Number.parseInt(declared, 10) > maxBytes ? c.json(BODY_TOO_LARGE, 413) : next();
  };
}
