import pg from "pg";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.ts";
import { CommitGroups } from "./commit-groups.ts";
import { onPooledClient, query, valueOf } from "./pooled-statement.ts";
import { PreparedStatements } from "./prepared-statements.ts";
import type { Writes } from "./write-gate.ts";

/** The pool under a PostgreSQL client, for statements that commit alone, the statements its connections hold, and its commit groups. */
const pools = new WeakMap<object, { pool: pg.Pool; prepared: PreparedStatements; groups: CommitGroups }>();

/** Statements on `prisma` that commit alone go to `pool`, named (`preparedPerConnection`) and grouped (`groupsAtOnce`, see CommitGroups). */
export function runsLoneStatementsOn(prisma: PrismaClient, pool: pg.Pool, { preparedPerConnection, groupsAtOnce }: { preparedPerConnection: number; groupsAtOnce: number }) {
  const prepared = new PreparedStatements(preparedPerConnection);
  pools.set(prisma, { pool, prepared, groups: new CommitGroups(pool, prepared, groupsAtOnce) });
}

/**
 * Runs `statement` and answers its rows. When `db` is the client itself (no transaction: the statement commits alone),
 * it goes to the pool straight (PostgreSQL's, or the embedded database's one session over its wire protocol), without
 * Prisma's raw-query pipeline, which costs about as much CPU as the driver's own work; inside a transaction, through
 * Prisma. Either way the rows are the same.
 */
export async function runStatement<Row>(db: PrismaClient | Prisma.TransactionClient, statement: Prisma.Sql): Promise<Row[]> {
  const lone = pools.get(db);
  if (!lone) return db.$queryRaw<Row[]>(statement);
  return runOnPool<Row>(lone, statement.text, statement.values);
}

/** runStatement for a statement written as text with its parameters ($1, $2, …). */
export async function runText<Row>(db: PrismaClient | Prisma.TransactionClient, text: string, values: unknown[]): Promise<Row[]> {
  const lone = pools.get(db);
  if (!lone) return db.$queryRawUnsafe<Row[]>(text, ...values);
  return runOnPool<Row>(lone, text, values);
}

/**
 * runStatement for a statement that writes. When it commits alone (on the pool) it goes with the others sent meanwhile
 * (CommitGroups) and is a write of `writes`' own, so that a shutdown can stop it: refused once writes are stopped, and
 * cancelled while it runs alone (a statement waiting for a row lock fails, so it never commits); a grouped write's
 * commit goes out with it, and its group waits 50 ms at most for a lock. Inside a transaction the transaction is the
 * write (see `transact`).
 */
export async function runWrite<Row>(db: PrismaClient | Prisma.TransactionClient, statement: Prisma.Sql, writes: Writes): Promise<Row[]> {
  const write = writes.begin();
  try {
    const lone = pools.get(db);
    if (!lone) return await db.$queryRaw<Row[]>(statement);
    return await lone.groups.run<Row>(statement.text, statement.values, write);
  } finally {
    write.end();
  }
}

/** As `pool.query`, with the statement named. */
const runOnPool = <Row>({ pool, prepared }: { pool: pg.Pool; prepared: PreparedStatements }, text: string, values: unknown[]) =>
  onPooledClient(pool, (client) => query<Row>(client, prepared, text, values));

/**
 * What every statement of the server's own timed work (a tally fold) begins with: it shows in pg_stat_activity and the
 * logs as what no request asked for, and SQL counting in tests leaves it out.
 */
export const MAINTENANCE_TAG = "/* maintenance */";

const tagged = (text: string) => `${MAINTENANCE_TAG} ${text}`;

/**
 * Runs a maintenance statement (a tally fold) with `timeoutMs` to finish, whatever requests' statement timeout: in a
 * transaction of its own with the timeout set for it alone. Answers how many rows it changed.
 */
export async function runMaintenance(db: PrismaClient, text: string, values: unknown[], timeoutMs: number): Promise<number> {
  const lone = pools.get(db);
  if (!lone) return db.$executeRawUnsafe(tagged(text), ...values);
  const client = await lone.pool.connect();
  try {
    await client.query(tagged("BEGIN"));
    await client.query(tagged(`SET LOCAL statement_timeout = ${Math.max(0, Math.floor(timeoutMs))}`));
    const result = await client.query({ text: tagged(text), values: values.map(valueOf) });
    await client.query(tagged("COMMIT"));
    return result.rowCount ?? 0;
  } catch (error) {
    await client.query(tagged("ROLLBACK")).catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
