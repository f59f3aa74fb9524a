import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/** The peer address of a request served by @hono/node-server; undefined for in-process `fetch` calls. */
export function clientAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
