import type { Context } from "hono";

/**
 * Sets a header on the response a handler already answered with (middleware after `next()`). Hono's `c.header` would
 * rebuild that response around its body as a stream (asking `bodyUsed` turns @hono/node-server's lightweight Response
 * into a full one), so the body would go out through web streams instead of being written whole. The response's own
 * headers are mutable, except on a response fetched from elsewhere, which keeps Hono's way.
 */
export function setAnsweredHeader(c: Context, name: string, value: string, { append = false } = {}) {
  try {
    if (append) c.res.headers.append(name, value);
    else c.res.headers.set(name, value);
  } catch {
    c.header(name, value, { append });
  }
}
