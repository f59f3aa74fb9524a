import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { BODY_TOO_LARGE } from "../platform/errors.ts";

/**
 * 413 for a body over `maxBytes`: at once when Content-Length says so; a chunked body is read up to the limit and no
 * further (hono's bodyLimit), so it cannot grow without bound.
 */
export const limitBody = (maxBytes: number): MiddlewareHandler => bodyLimit({ maxSize: maxBytes, onError: (c) => c.json(BODY_TOO_LARGE, 413) });
