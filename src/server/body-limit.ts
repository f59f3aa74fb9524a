import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/** What REST and /graphql answer (413) to a body over MAX_BODY_BYTES. */
export const BODY_TOO_LARGE = { detail: "Request body is too large." };

/**
 * 413 for a body over `maxBytes`: at once when Content-Length says so; a chunked body is read up to the limit and no
 * further (hono's bodyLimit), so it cannot grow without bound.
 */
export const limitBody = (maxBytes: number): MiddlewareHandler => bodyLimit({ maxSize: maxBytes, onError: (c) => c.json(BODY_TOO_LARGE, 413) });
