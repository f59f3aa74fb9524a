/**
 * The embedded database's pool (pglite-wire.ts) answers as PostgreSQL's would: statements that commit alone and
 * sql-reads' reads go through node-postgres, as on PostgreSQL.
 */
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, expect, it } from "vitest";
import { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { runMaintenance, runsLoneStatementsOn, runText } from "./lone-statement.ts";
import { createPGlite } from "./pglite.ts";
import { pgliteWirePool } from "./pglite-wire.ts";

// As the embedded database is opened (connect.ts), on an empty cluster: Prisma through its adapter, and the pool.
const pglite = createPGlite();
const database = { prisma: new PrismaClient({ adapter: new PrismaPGlite(pglite) }), pool: pgliteWirePool(pglite) };
runsLoneStatementsOn(database.prisma, database.pool, { preparedPerConnection: 100, groupsAtOnce: 1 });
afterAll(async () => {
  await database.pool.end();
  await database.prisma.$disconnect();
  await pglite.close();
});

it("reads values as Prisma's raw query does, with parameters of every kind", async () => {
  const text = `SELECT $1::numeric AS n, $2::bigint AS b, $3::date AS d, $4::timestamp AS ts, $5::text[] AS tags, ($6::uuid)::text AS id`;
  const values = ["12.3456789012", 9007199254740993n, new Date("2026-01-02T00:00:00Z"), new Date("2026-01-02T03:04:05.678Z"), ["a", "b"], "0123456789ab4def8123456789abcdef"];
  const viaPool = await runText(database.prisma, text, values);
  expect(database.pool.totalCount).toBe(1);
  expect(viaPool).toEqual(await database.prisma.$queryRawUnsafe(text, ...values));
  expect(viaPool[0]).toMatchObject({ n: new Prisma.Decimal("12.3456789012"), b: 9007199254740993n, tags: ["a", "b"] });
});

it("answers a failed statement with PostgreSQL's error, and goes on", async () => {
  await expect(runText(database.prisma, "SELECT nope", [])).rejects.toMatchObject({ code: "42703" });
  expect(await runText(database.prisma, "SELECT 1 AS one", [])).toEqual([{ one: 1 }]);
});

it("keeps Prisma's statements out of a transaction the pool began, until it ends", async () => {
  await database.prisma.$executeRawUnsafe("CREATE TABLE wire_check (n int)");
  const connection = await database.pool.connect();
  try {
    await connection.query("BEGIN");
    await connection.query("INSERT INTO wire_check VALUES (1)");
    let settled = false;
    const seen = database.prisma.$queryRawUnsafe("SELECT count(*)::int AS count FROM wire_check").finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    await connection.query("ROLLBACK");
    expect(await seen).toEqual([{ count: 0 }]);
  } finally {
    connection.release();
  }
  expect(await runMaintenance(database.prisma, "INSERT INTO wire_check VALUES (2)", [], 5_000)).toBe(1);
  expect(await database.prisma.$queryRawUnsafe("SELECT n FROM wire_check")).toEqual([{ n: 2 }]);
});

it("waits for a transaction Prisma holds rather than running inside it", async () => {
  await database.prisma.$executeRawUnsafe("CREATE TABLE wire_waits (n int)");
  let entered!: () => void;
  let finish!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const transaction = database.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("INSERT INTO wire_waits VALUES (1)");
    entered();
    await finished;
    await tx.$executeRawUnsafe("INSERT INTO wire_waits VALUES (2)");
  });
  await inside;
  const read = runText(database.prisma, "SELECT count(*)::int AS count FROM wire_waits", []);
  await new Promise((resolve) => setTimeout(resolve, 100));
  finish();
  await transaction;
  expect(await read).toEqual([{ count: 2 }]);
});
