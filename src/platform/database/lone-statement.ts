import pg from "pg";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.ts";
import { isStalePlan, PreparedStatements } from "./prepared-statements.ts";
import { writesStopped, type Writes } from "./write-gate.ts";

declare module "pg" {
  interface ClientBase {
    /** The backend's pid, from the server's BackendKeyData (node-postgres sets it; its types omit it). */
    readonly processID: number | null;
  }
}

/** The pool under a PostgreSQL client, for statements that commit alone, and the statements its connections hold. */
const pools = new WeakMap<object, { pool: pg.Pool; prepared: PreparedStatements }>();

export const runsLoneStatementsOn = (prisma: PrismaClient, pool: pg.Pool, preparedPerConnection: number) =>
  void pools.set(prisma, { pool, prepared: new PreparedStatements(preparedPerConnection) });

/**
 * Values as Prisma's raw queries read them where node-postgres reads them otherwise: `date` and `timestamp` in UTC
 * (not local time), `bigint` as BigInt and `numeric` as Decimal (not text).
 */
const AS_PRISMA_READS: Record<number, (text: string) => unknown> = {
  1082: (text) => new Date(`${text}T00:00:00Z`), // date
  1114: (text) => new Date(`${text.replace(" ", "T")}Z`), // timestamp without time zone
  20: (text) => BigInt(text), // bigint
  1700: (text) => new Prisma.Decimal(text), // numeric
};

const parsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => AS_PRISMA_READS[oid] ?? pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** As Prisma sends a date: in UTC, whatever the process's time zone (node-postgres would send local time); a BigInt as its text. */
const valueOf = (value: unknown) => (value instanceof Date ? value.toISOString() : typeof value === "bigint" ? value.toString() : value);

/**
 * Runs `statement` and answers its rows. On PostgreSQL, when `db` is the client itself (no transaction: the statement
 * commits alone), it goes to the pool straight, without Prisma's raw-query pipeline, which costs about as much CPU as
 * the driver's own work; inside a transaction, and on the embedded database (one connection that Prisma's transactions
 * hold), through Prisma. Either way the rows are the same.
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
 * runStatement for a statement that writes. When it commits alone (on the pool) it is a write of `writes`' own, so that
 * a shutdown can stop it: refused once writes are stopped, and cancelled while it runs (a statement waiting for a row
 * lock fails, so it never commits). Inside a transaction the transaction is the write (see `transact`).
 */
export async function runWrite<Row>(db: PrismaClient | Prisma.TransactionClient, statement: Prisma.Sql, writes: Writes): Promise<Row[]> {
  const write = writes.begin();
  try {
    const lone = pools.get(db);
    if (!lone) return await db.$queryRaw<Row[]>(statement);
    const sent = (client: pg.PoolClient) => {
      write.runsOn(client.processID ?? undefined);
      return query<Row>(client, lone.prepared, statement.text, statement.values);
    };
    // A connection whose backend was cancelled may get a cancel late, during its next user's statement: drop it.
    return await onPooledClient(lone.pool, sent, () => write.stopped).catch((error: unknown) => {
      throw write.stopped && sqlStateOf(error) === QUERY_CANCELED ? writesStopped() : error;
    });
  } finally {
    write.end();
  }
}

const QUERY_CANCELED = "57014";
const sqlStateOf = (error: unknown) => (error instanceof pg.DatabaseError ? error.code : undefined);

async function query<Row>(client: pg.PoolClient, prepared: PreparedStatements, text: string, values: unknown[]): Promise<Row[]> {
  const name = await prepared.nameOn(client, text);
  const send = async () => (await client.query<Row & pg.QueryResultRow>({ name, text, values: values.map(valueOf), types: parsers })).rows;
  try {
    return await send();
  } catch (error) {
    // Refused before it ran: sent again, it is planned anew.
    if (!name || !isStalePlan(error)) throw error;
    await prepared.replanOn(client, name);
    return send();
  }
}

/** `work` on a connection of the pool, which is then dropped rather than reused if `work` failed (as `pool.query` does) or `drop` says so. */
async function onPooledClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, drop = () => false): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    return await work(client);
  } catch (error) {
    failure = error as Error;
    throw error;
  } finally {
    client.release(drop() || failure);
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
 * Runs a maintenance statement (a tally fold) with `timeoutMs` to finish, whatever requests' statement timeout: on
 * PostgreSQL in a transaction of its own with the timeout set for it alone; on the embedded database (no timeout) as it
 * is. Answers how many rows it changed.
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
