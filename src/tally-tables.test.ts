import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test/support/app.ts";
import { TALLY_TABLES } from "./modules.ts";

/**
 * Every fold deletes the rows it sums: a tally table is vacuumed and analyzed after a fixed number of changes, not
 * after PostgreSQL's default fifth of the table, or its counts would read through the dead rows of many folds.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it.each(TALLY_TABLES.map(({ table }) => table))("%s is vacuumed and analyzed after a fixed number of changes", async (table) => {
  const [row] = await t.app.deps.db.$queryRaw<Array<{ options: string[] | null }>>`SELECT reloptions AS options FROM pg_class WHERE relname = ${table}`;
  expect(row?.options).toEqual(
    expect.arrayContaining([
      "autovacuum_vacuum_scale_factor=0",
      "autovacuum_vacuum_threshold=1000",
      "autovacuum_vacuum_insert_scale_factor=0",
      "autovacuum_analyze_scale_factor=0",
    ]),
  );
});
