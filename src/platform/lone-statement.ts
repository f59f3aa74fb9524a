import pg from "pg";
import type { Prisma, PrismaClient } from "../generated/prisma/client.ts";

/** The pool under a PostgreSQL client, for statements that commit alone. */
const pools = new WeakMap<PrismaClient, pg.Pool>();

export const runsLoneStatementsOn = (prisma: PrismaClient, pool: pg.Pool) => void pools.set(prisma, pool);

/** Prisma reads `date` and `timestamp` values as UTC; node-postgres would read them as local time. */
const UTC_PARSERS: Record<number, (text: string) => Date> = {
  1082: (text) => new Date(`${text}T00:00:00Z`), // date
  1114: (text) => new Date(`${text.replace(" ", "T")}Z`), // timestamp without time zone
};

const parsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => UTC_PARSERS[oid] ?? pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** As Prisma sends a date: in UTC, whatever the process's time zone (node-postgres would send local time). */
const valueOf = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/**
 * Runs `statement` and answers its rows. On PostgreSQL, when `db` is the client itself (no transaction: the statement
 * commits alone), it goes to the pool straight, without Prisma's raw-query pipeline, which costs about as much CPU as
 * the driver's own work; inside a transaction, and on the embedded database (one connection that Prisma's transactions
 * hold), through Prisma. Rows come as node-postgres reads them: dates as Date, bigint and numeric as text.
 */
export async function runStatement<Row>(db: PrismaClient | Prisma.TransactionClient, statement: Prisma.Sql): Promise<Row[]> {
  const pool = pools.get(db as PrismaClient);
  if (!pool) return db.$queryRaw<Row[]>(statement);
  const result = await pool.query<Row & pg.QueryResultRow>({ text: statement.text, values: statement.values.map(valueOf), types: parsers });
  return result.rows;
}
