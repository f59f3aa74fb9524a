import fs from "node:fs";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { type Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { runsLoneStatementsOn } from "./lone-statement.ts";
import { pgliteWirePool } from "./pglite-wire.ts";
import type { SqlExecutor } from "./migrations.ts";
import type { Backend, CancelBackend } from "./write-gate.ts";

export type Db = PrismaClient;

/** Errors without the call site's code frame: clients never see them, and building one costs CPU on every failure. */
const ERROR_FORMAT = "minimal";

/** Connections of the pool by state, for the metrics; `waiting` counts queries queued for a connection. */
export interface PoolUsage {
  total: number;
  idle?: number;
  waiting?: number;
}

export interface Database {
  prisma: PrismaClient;
  /** Raw SQL access for the migration runner and health checks. */
  sql: SqlExecutor;
  kind: "pglite" | "postgresql";
  poolUsage(): PoolUsage;
  /**
   * PostgreSQL only: cancels what the backend is running (for a transaction, only while that transaction lasts), over a
   * connection of its own (the pool may be full).
   */
  cancelBackend?: CancelBackend;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite data directory; undefined keeps the embedded database in memory (tests). */
  dataDir?: string;
  /** An in-memory embedded database starts as this dump (PGlite's `dumpDataDir`) instead of an empty cluster. */
  pgliteDump?: Blob;
  /** PostgreSQL only: connections of the pool (default 10). */
  poolSize?: number;
  /** Statements each connection keeps prepared (default 100; 0: none), see `PreparedStatements`. */
  preparedStatements?: number;
  /** Transactions of lone writes in flight at once (default 1; 0: every write alone), see `CommitGroups`. */
  commitGroups?: number;
  /** PostgreSQL only: the server cancels a statement running longer than this (SQLSTATE 57014); 0 or unset: no limit. */
  statementTimeoutMs?: number;
  /** How long one transaction may last (default 15 s), whatever the statement timeout; see `transactionLimitOf`. */
  transactionTimeoutMs?: number;
  /**
   * PostgreSQL only: an idle pooled connection broke (server restart, terminated backend). The pool drops it and
   * opens another when needed; without a listener node-postgres would crash the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.databaseUrl ? await openPostgres(options.databaseUrl, options) : await openPglite(options);
  const timeoutMs = options.transactionTimeoutMs ?? DEFAULT_TRANSACTION_TIMEOUT_MS;
  const cancel = database.cancelBackend;
  const statementTimeoutMs = options.statementTimeoutMs ?? 0;
  transactionLimits.set(database.prisma, {
    timeoutMs,
    // The embedded database has one connection: nothing another transaction holds can block this one.
    arm: cancel ? (tx) => armDeadline(tx, timeoutMs, cancel) : async () => UNARMED,
    statementsBounded: !cancel || (statementTimeoutMs > 0 && statementTimeoutMs <= timeoutMs),
  });
  return database;
}

export const DEFAULT_TRANSACTION_TIMEOUT_MS = 15_000;
const DEFAULT_PREPARED_STATEMENTS = 100;
const DEFAULT_COMMIT_GROUPS = 1;

/** A transaction under its deadline: `disarm` before the commit. */
export interface ArmedTransaction {
  /** PostgreSQL: the backend running the transaction, and when the transaction began (what the deadline cancels). */
  backend?: Backend;
  disarm(): void;
}

const UNARMED: ArmedTransaction = { disarm: () => {} };

/** How a database bounds its transactions: `arm` runs first in each. */
export interface TransactionLimit {
  timeoutMs: number;
  arm(tx: Prisma.TransactionClient): Promise<ArmedTransaction>;
  /**
   * Whether a statement run outside a transaction ends within the same deadline by itself: the statement timeout is
   * on and no longer (or the embedded database, whose one connection nothing else holds).
   */
  statementsBounded: boolean;
}

const transactionLimits = new WeakMap<PrismaClient, TransactionLimit>();

export const transactionLimitOf = (db: PrismaClient): TransactionLimit =>
  transactionLimits.get(db) ?? { timeoutMs: DEFAULT_TRANSACTION_TIMEOUT_MS, arm: async () => UNARMED, statementsBounded: false };

/**
 * Prisma's transaction timeout refuses the next statement but cannot stop the one running, and a statement waiting
 * for a row lock waits as long as the lock is held (or the statement timeout, which may be off). So at the deadline
 * the transaction's backend is cancelled (SQLSTATE 57014): the statement fails, the transaction rolls back, and the
 * client gets its 503 on time. Costs one round trip per transaction (the backend's pid and the transaction's start).
 */
async function armDeadline(tx: Prisma.TransactionClient, timeoutMs: number, cancel: CancelBackend): Promise<ArmedTransaction> {
  const [backend] = await tx.$queryRaw<Backend[]>`SELECT pg_backend_pid() AS pid, now()::text AS "transactionStart"`;
  let done = false;
  const timer = setTimeout(() => {
    if (!done) void cancel(backend).catch(() => {});
  }, timeoutMs);
  return {
    backend,
    disarm: () => {
      done = true;
      clearTimeout(timer);
    },
  };
}

/**
 * The embedded database: Prisma's client through its PGlite adapter, and for what commits alone and sql-reads' reads
 * (as on PostgreSQL) a node-postgres pool of its one session over its wire protocol, named statements included, so
 * that PGlite parses and plans a statement once, not on every read.
 */
async function openPglite({ dataDir, pgliteDump: dump, preparedStatements = DEFAULT_PREPARED_STATEMENTS, commitGroups = DEFAULT_COMMIT_GROUPS }: DatabaseOptions): Promise<Database> {
  const directory = dataDir ? path.resolve(dataDir) : undefined;
  if (directory) fs.mkdirSync(path.dirname(directory), { recursive: true });
  // Loaded only here: PGlite and its adapter cost ~200 MB a server on PostgreSQL never uses.
  const [{ createPGlite }, { PrismaPGlite }] = await Promise.all([import("./pglite.ts"), import("pglite-prisma-adapter")]);
  const unlock = directory ? lockDataDir(directory) : () => {};
  const pglite = createPGlite(directory ? { dataDir: directory } : dump ? { loadDataDir: dump } : {});
  try {
    await pglite.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), errorFormat: ERROR_FORMAT });
  const pool = pgliteWirePool(pglite);
  runsLoneStatementsOn(prisma, pool, { preparedPerConnection: preparedStatements, groupsAtOnce: commitGroups });
  return {
    prisma,
    kind: "pglite",
    poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    sql: {
      query: async (text, params) => ({ rows: (await pglite.query(text, params)).rows as never[] }),
      exec: async (text) => void (await pglite.exec(text)),
    },
    close: async () => {
      await pool.end();
      await prisma.$disconnect();
      await pglite.close();
      unlock();
    },
  };
}

/** How the gateway's connections show in pg_stat_activity (an `application_name` in DATABASE_URL wins). */
export const APPLICATION_NAME = "marketplace-gateway";

async function openPostgres(
  connectionString: string,
  { poolSize = 10, preparedStatements = DEFAULT_PREPARED_STATEMENTS, commitGroups = DEFAULT_COMMIT_GROUPS, statementTimeoutMs = 0, onIdleConnectionError = () => {} }: DatabaseOptions,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    application_name: APPLICATION_NAME,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  });
  pool.on("error", onIdleConnectionError);
  // pg-pool takes a client's error listener off before handing it out; an error read in the same chunk as the answer that
  // released it would otherwise throw before its next user listens. Its query and the pool still see the error.
  pool.on("connect", (client) => client.on("error", () => {}));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), errorFormat: ERROR_FORMAT });
  runsLoneStatementsOn(prisma, pool, { preparedPerConnection: preparedStatements, groupsAtOnce: commitGroups });
  return {
    prisma,
    kind: "postgresql",
    poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    cancelBackend: async ({ pid, transactionStart }) => {
      const client = new pg.Client({ connectionString, application_name: APPLICATION_NAME });
      client.on("error", () => {});
      try {
        await client.connect();
        // xact_start is the transaction's now(): a transaction ended since (its connection serving another) is left alone.
        await client.query("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND ($2::timestamptz IS NULL OR xact_start = $2)", [pid, transactionStart ?? null]);
      } finally {
        await client.end().catch(() => {});
      }
    },
    sql: {
      query: async (text, params) => ({ rows: (await pool.query(text, params as unknown[])).rows }),
      exec: (text) => withoutStatementTimeout(pool, text),
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** Runs a script (a migration) on one connection with the statement timeout lifted: a migration may take longer than a request. */
async function withoutStatementTimeout(pool: pg.Pool, script: string): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("SET statement_timeout = 0");
    await client.query(script);
    await client.query("RESET statement_timeout");
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A connection that failed midway may still carry the lifted timeout: drop it rather than return it to the pool.
    client.release(broken);
  }
}
