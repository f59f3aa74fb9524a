import { expect } from "vitest";
import type { HttpResponse } from "./app.ts";

/** A REST list's path asking for its uuids only, all of them (one page of at most 300), under `filter`. */
export const uuidListPath = (path: string, filter: Readonly<Record<string, string>>) =>
  `${path}?${new URLSearchParams({ ...filter, page_size: "300", field: "uuid" })}`;

/** The uuids a list answered, checking that it answered 200 and that its count is the whole list. */
export function uuidsOf(res: HttpResponse<Array<{ uuid: string }>>, what: string): string[] {
  expect(res.status, `${what}: ${res.text}`).toBe(200);
  expect(Number(res.headers.get("x-result-count"))).toBe(res.body.length);
  return res.body.map((item) => item.uuid);
}
