import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "X-Request-ID";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:=+/-]{1,128}$/;

/** The caller's id when it is short and printable, otherwise a fresh UUID. */
export function requestIdFrom(header: string | string[] | null | undefined): string {
  return typeof header === "string" && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}
