import { ServerResponse } from "node:http";
import type { Context } from "hono";

/**
 * What the response of a request served by @hono/node-server holds that the network has not taken yet: it writes a
 * streamed body (SSE) chunk by chunk and waits for `drain` past 16 KiB. Undefined for in-process `fetch` calls.
 */
export function unsentResponseBytes(c: Context): (() => number) | undefined {
  const outgoing: unknown = c.env?.outgoing;
  return outgoing instanceof ServerResponse ? () => outgoing.writableLength : undefined;
}
