import { afterAll, beforeAll, expect, it } from "vitest";
import { migratedDatabase } from "../../../../test/support/database.ts";
import { countSql } from "../../../../test/support/sql-counter.ts";
import type { Database } from "../../database/connect.ts";
import { readRows, readValue, type RowsStatement } from "./fused-reads.ts";

let db: Database & { drop(): Promise<void> };
beforeAll(async () => {
  db = await migratedDatabase();
  await readRows(db.prisma, numbers(1, 1)); // opens the pool's connection, which the counts below leave out
});
afterAll(() => db.drop());

/** The numbers from..to, each with its square, as sql-reads writes a statement (parameters `$n::type`). */
const numbers = (from: number, to: number): RowsStatement => ({
  text: "SELECT n AS n, n * n AS square FROM generate_series($1::int, $2::int) AS n ORDER BY n",
  values: [from, to],
  selectListEnd: "SELECT n AS n, n * n AS square".length,
});
const countBetween = (from: number, to: number) => ({ text: "SELECT count(*) AS count FROM generate_series($1::int, $2::int) AS n", values: [from, to] });
const sumFrom = (from: number) => ({ text: "SELECT sum(n)::bigint AS total FROM generate_series($1::int, 10) AS n", values: [from] });

it("values asked in the same tick as rows ride in the rows' statement, their parameters renumbered; the rows keep only their own columns", async () => {
  const counted = await countSql(() => Promise.all([readRows(db.prisma, numbers(1, 3)), readValue(db.prisma, countBetween(1, 100)), readValue(db.prisma, sumFrom(8))]), { of: "run" });
  const [rows, count, sum] = counted.result;
  expect({ rows, count: Number(count), sum: Number(sum) }).toEqual({
    rows: [
      { n: 1, square: 1 },
      { n: 2, square: 4 },
      { n: 3, square: 9 },
    ],
    count: 100,
    sum: 27,
  });
  expect(counted.statements).toBe(1);
});

it("rows that find nothing: the values are read alone after all", async () => {
  const counted = await countSql(() => Promise.all([readRows(db.prisma, numbers(5, 1)), readValue(db.prisma, countBetween(1, 7))]), { of: "run" });
  expect([counted.result[0], Number(counted.result[1])]).toEqual([[], 7]);
  expect(counted.statements).toBe(2);
});

it("asked in different ticks, or with no rows beside them, each is a statement of its own", async () => {
  const counted = await countSql(
    async () => {
      const rows = await readRows(db.prisma, numbers(1, 2));
      return [rows, Number(await readValue(db.prisma, countBetween(1, 4)))];
    },
    { of: "run" },
  );
  expect(counted.result).toEqual([[{ n: 1, square: 1 }, { n: 2, square: 4 }], 4]);
  expect(counted.statements).toBe(2);
});

it("a statement that fails fails every read that rode in it", async () => {
  const broken = { text: "SELECT no_such_column FROM generate_series($1::int, 2) AS n", values: [1] };
  const [rows, value] = await Promise.allSettled([readRows(db.prisma, numbers(1, 2)), readValue(db.prisma, broken)]);
  expect([rows.status, value.status]).toEqual(["rejected", "rejected"]);
  expect(await readRows(db.prisma, numbers(1, 1))).toEqual([{ n: 1, square: 1 }]);
});
