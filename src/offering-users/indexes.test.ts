import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { countSql } from "../../test/support/sql-counter.ts";
import { OFFERING_USER_CONTRACT } from "./contract.ts";

/**
 * The default orders of the large lists are backed by an index, so a page is read in index order and costs the same
 * at a hundred rows or a million. With sorting priced out (`enable_sort = off`), a plan that still sorts the table
 * has no index to use.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DEFAULT_ORDERS: Record<string, string> = {
  "offering users (username, then created and id)": "SELECT id FROM offering_users ORDER BY username ASC NULLS LAST, created ASC, id ASC LIMIT 10",
  "offering users o=-username (the same index read backwards)":
    "SELECT id FROM offering_users ORDER BY username DESC NULLS FIRST, created DESC, id DESC LIMIT 10",
  "offering users o=user_first_name (the user's names copied onto the record)":
    "SELECT id FROM offering_users ORDER BY user_first_name ASC, created ASC, id ASC LIMIT 10",
  "offering users o=-user_last_name": "SELECT id FROM offering_users ORDER BY user_last_name DESC, created DESC, id DESC LIMIT 10",
  "offering users is_restricted=true": "SELECT id FROM offering_users WHERE is_restricted ORDER BY username ASC NULLS LAST, created ASC, id ASC LIMIT 10",
  "events (newest first)": "SELECT id FROM events ORDER BY created DESC LIMIT 10",
};

/** The plan of `query` with sequential scans and sorts priced out. */
async function planOf(query: string): Promise<string> {
  const plan = await t.app.deps.db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_sort = off");
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    return tx.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(`EXPLAIN ${query}`);
  });
  return plan.map((row) => row["QUERY PLAN"]).join("\n");
}

it.each(Object.entries(DEFAULT_ORDERS))("%s: read in index order, not sorted", async (_name, query) => {
  const text = await planOf(query);
  expect(text).toMatch(/Index (Only )?Scan/);
  expect(text).not.toMatch(/(^|\s)Sort /);
});

it("query= finds its substrings through one trigram index over the usernames and the user's names", async () => {
  const columns = ["username", "user_username", "user_first_name", "user_last_name"];
  const text = await planOf(`SELECT id FROM offering_users WHERE ${columns.map((column) => `${column} ILIKE '%ada%'`).join(" OR ")}`);
  expect(text.match(/Bitmap Index Scan on offering_users_search_trgm_idx/g)).toHaveLength(columns.length);
  expect(text).not.toMatch(/Seq Scan/);
});

it("user_username= finds the users by an equality on UPPER(username), which an index serves", async () => {
  const { texts } = await countSql(() => t.http("GET", "/api/marketplace-offering-users/?user_username=SOMEONE", { token: t.world.tokens.staff }));
  expect(texts.join("\n")).toMatch(/FROM users WHERE UPPER\(username\) = UPPER\(\$1\)/);
  expect(await planOf("SELECT id FROM users WHERE UPPER(username) = UPPER('someone')")).toMatch(/Index Scan using users_username_upper_idx/);
});

it("a descending order takes its tiebreak in the same direction, as the index read backwards gives it", () => {
  expect(OFFERING_USER_CONTRACT.orderBy(["USERNAME_DESC"])).toEqual([
    { username: { sort: "desc", nulls: "first" } },
    { created: "desc" },
    { id: "desc" },
  ]);
  expect(OFFERING_USER_CONTRACT.orderBy([])).toEqual([{ username: { sort: "asc", nulls: "last" } }, { created: "asc" }, { id: "asc" }]);
});
