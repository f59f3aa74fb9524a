import { afterAll, expect, it } from "vitest";
import { createPGlite, EMBEDDED_SHARED_BUFFERS } from "./pglite.ts";

const pglite = createPGlite();
afterAll(() => pglite.close());

it("the embedded database keeps a small buffer cache (its memory never shrinks), and PGlite's own start parameters", async () => {
  const setting = async (name: string) => (await pglite.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
  expect(await setting("shared_buffers")).toBe(EMBEDDED_SHARED_BUFFERS);
  expect(await setting("search_path")).toBe("public");
  expect(await setting("max_parallel_workers")).toBe("0");
});
