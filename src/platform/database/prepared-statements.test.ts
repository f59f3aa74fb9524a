import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedDatabase } from "../../../test/support/database.ts";
import type { Database } from "./connect.ts";
import { runText } from "./lone-statement.ts";

/** Statements a single connection holds; the view's own query is one of them. */
const HELD = 3;
const A = "SELECT $1::int + 1 AS n";
const B = "SELECT $1::int + 2 AS n";
const C = "SELECT $1::int + 3 AS n";
const HELD_STATEMENTS = "SELECT statement FROM pg_prepared_statements ORDER BY statement";

const answer = async (db: Database, text: string, value: number) => (await runText<{ n: number }>(db.prisma, text, [value]))[0].n;
const held = async (db: Database) => (await runText<{ statement: string }>(db.prisma, HELD_STATEMENTS, [])).map((row) => row.statement);

describe("a connection keeps the statements it was sent prepared, the least recently used leaving first", () => {
  let db: Database & { drop(): Promise<void> };
  beforeAll(async () => {
    db = await migratedDatabase({ poolSize: 1, preparedStatements: HELD });
  });
  afterAll(() => db.drop());

  it("a text sent again is bound to the statement the connection holds, with the new values", async () => {
    expect([await answer(db, A, 1), await answer(db, A, 10)]).toEqual([2, 11]);
    expect(await held(db)).toEqual(expect.arrayContaining([A]));
  });

  it("beyond its statements, the connection lets go of the least recently used one, and sends it again when asked", async () => {
    await answer(db, B, 1);
    await answer(db, A, 1);
    await answer(db, C, 1);
    // B was used least recently when the view's query needed room.
    expect((await held(db)).sort()).toEqual([A, C, HELD_STATEMENTS].sort());
    expect(await answer(db, B, 5)).toBe(7);
    expect(await held(db)).toHaveLength(HELD);
  });

  it("a statement kept from before a migration changed the type of a column it reads is planned anew, not refused", async () => {
    await db.sql.exec("CREATE TABLE migrated (amount int); INSERT INTO migrated VALUES (7)");
    const read = () => runText<{ amount: unknown }>(db.prisma, "SELECT amount FROM migrated", []);
    expect(await read()).toEqual([{ amount: 7 }]);
    await db.sql.exec("ALTER TABLE migrated ALTER COLUMN amount TYPE text");
    expect(await read()).toEqual([{ amount: "7" }]);
  });

  it("a statement the database refuses fails alone: the next ones are answered", async () => {
    await expect(runText(db.prisma, "SELECT no_such_column FROM pg_class", [])).rejects.toThrow(/no_such_column/);
    expect(await answer(db, A, 2)).toBe(3);
    expect(await answer(db, B, 2)).toBe(4);
  });
});

describe("with DATABASE_PREPARED_STATEMENTS=0", () => {
  let db: Database & { drop(): Promise<void> };
  beforeAll(async () => {
    db = await migratedDatabase({ poolSize: 1, preparedStatements: 0 });
  });
  afterAll(() => db.drop());

  it("statements are sent unnamed: the connection holds none", async () => {
    expect(await answer(db, A, 1)).toBe(2);
    expect(await held(db)).toEqual([]);
  });
});
