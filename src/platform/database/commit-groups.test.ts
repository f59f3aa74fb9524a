import { afterAll, beforeAll, expect, it } from "vitest";
import { migratedDatabase } from "../../../test/support/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import type { Database } from "./connect.ts";
import { runWrite } from "./lone-statement.ts";
import { WriteGate } from "./write-gate.ts";

// One group in flight: the first write goes alone, the writes sent meanwhile wait and go together.
let database: Database & { drop(): Promise<void> };
const writes = new WriteGate();
beforeAll(async () => {
  database = await migratedDatabase({ commitGroups: 1 });
  await database.sql.exec("CREATE TABLE group_probe (id int PRIMARY KEY, note text NOT NULL)");
});
afterAll(() => database.drop());

const insert = (id: number, note: string) => runWrite<{ id: number; at: Date }>(database.prisma, Prisma.sql`INSERT INTO group_probe (id, note) VALUES (${id}, ${note}) RETURNING id, now()::timestamp AS at`, writes);
/** The transactions that wrote the rows, by row: rows written by one transaction share its id. */
const writers = async () => (await database.sql.query("SELECT id, xmin::text AS writer FROM group_probe ORDER BY id")).rows as Array<{ id: number; writer: string }>;

it("writes sent while another is in flight commit together, each answered with its own rows, parsed as alone", async () => {
  const answers = await Promise.all([1, 2, 3, 4, 5].map((id) => insert(id, `note ${id}`)));
  expect(answers.map(([row]) => row.id)).toEqual([1, 2, 3, 4, 5]);
  expect(answers.every(([row]) => row.at instanceof Date)).toBe(true);
  const rows = await writers();
  expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
  expect(rows[0].writer).not.toBe(rows[1].writer);
  expect(new Set(rows.slice(1).map((r) => r.writer)).size).toBe(1);
});

it("a write the database refuses fails alone: the others of its group are sent again and commit", async () => {
  const outcomes = await Promise.allSettled([insert(10, "first"), insert(11, "grouped"), insert(1, "taken"), insert(12, "grouped too")]);
  expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
  expect(String((outcomes[2] as PromiseRejectedResult).reason)).toMatch(/duplicate key/);
  const rows = await writers();
  expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 10, 11, 12]);
  // Sent again each alone: no longer one transaction.
  expect(rows.find((r) => r.id === 11)!.writer).not.toBe(rows.find((r) => r.id === 12)!.writer);
});

it("a write stopped while it waits for its group is refused, and the rest commit", async () => {
  const scope = writes.scope();
  const first = insert(20, "first");
  const stopped = runWrite(database.prisma, Prisma.sql`INSERT INTO group_probe (id, note) VALUES (21, 'stopped')`, scope);
  const grouped = insert(22, "grouped");
  scope.close();
  await expect(stopped).rejects.toThrow("The server is shutting down");
  await Promise.all([first, grouped]);
  expect((await writers()).map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 10, 11, 12, 20, 22]);
});
