/**
 * A tally fold is background work: it is not held to requests' statement timeout, so a fold that takes longer (a slow
 * disk, a bulk load of millions of rows) still finishes instead of being cancelled at every attempt (PostgreSQL only:
 * the embedded database has no statement timeout).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../../test/support/database.ts";
import { type Database, openDatabase } from "./connect.ts";
import { applyMigrations } from "./migrations.ts";
import { runStatement } from "./lone-statement.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { foldTallies, type TallyTable, totalsSql, unfoldedRowsSql } from "./tallies.ts";

/** The offering users' tallies, as src/offering-users/tallies.ts declares them. */
const OFFERING_USER_TALLIES: TallyTable = { table: "offering_user_tallies", columns: { offeringId: "offering_id", state: "state", hasConsent: "has_consent" } };

const MIGRATIONS_DIR = new URL("../../../prisma/migrations", import.meta.url).pathname;
const STATEMENT_TIMEOUT_MS = 100;
let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let hurried: Database;

describe.skipIf(!process.env.TEST_DATABASE_URL)("folding tallies under a short statement timeout", () => {
  beforeAll(async () => {
    fresh = await freshDatabase();
    await applyMigrations(fresh.sql, MIGRATIONS_DIR);
    hurried = await openDatabase({ databaseUrl: fresh.url, poolSize: 2, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
    // 300,000 tallies over 400 keys, as a bulk load of offering users leaves them.
    await fresh.prisma.$executeRawUnsafe(`
      INSERT INTO offering_user_tallies (offering_id, state, has_consent, delta)
      SELECT ('00000000-0000-4000-8000-' || lpad((g % 20)::text, 12, '0'))::uuid, (enum_range(NULL::"OfferingUserState"))[1 + g % 10], g % 2 = 0, 1
      FROM generate_series(1, 300000) AS g`);
  }, 60_000);
  afterAll(async () => {
    await hurried?.close();
    await fresh?.drop();
  });

  it("finishes a fold that takes longer than the timeout cancels requests' statements at", async () => {
    await expect(runStatement(hurried.prisma, Prisma.sql`SELECT pg_sleep(${(STATEMENT_TIMEOUT_MS * 3) / 1000})`)).rejects.toMatchObject({ code: "57014" });
    const totals = await fresh.prisma.$queryRawUnsafe(totalsSql(OFFERING_USER_TALLIES));
    const started = performance.now();
    await foldTallies(hurried.prisma, OFFERING_USER_TALLIES);
    expect(performance.now() - started).toBeGreaterThan(STATEMENT_TIMEOUT_MS);
    expect(await fresh.prisma.$queryRawUnsafe(totalsSql(OFFERING_USER_TALLIES))).toEqual(totals);
    const [{ unfolded }] = await fresh.prisma.$queryRawUnsafe<Array<{ unfolded: bigint }>>(`SELECT ${unfoldedRowsSql([OFFERING_USER_TALLIES])} AS unfolded`);
    expect(unfolded).toBe(0n);
  });
});
