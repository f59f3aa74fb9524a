import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import type { SqlExecutor } from "./migrations.ts";

export type Db = PrismaClient;

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
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite data directory; undefined keeps the embedded database in memory (tests). */
  dataDir?: string;
  /** PostgreSQL only: connections of the pool (default 10). */
  poolSize?: number;
  /** PostgreSQL only: the server cancels a statement running longer than this (SQLSTATE 57014); 0 or unset: no limit. */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL only: an idle pooled connection broke (server restart, terminated backend). The pool drops it and
   * opens another when needed; without a listener node-postgres would crash the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const directory = dataDir ? path.resolve(dataDir) : undefined;
  if (directory) fs.mkdirSync(path.dirname(directory), { recursive: true });
  const unlock = directory ? lockDataDir(directory) : () => {};
  const pglite = directory ? new PGlite(directory) : new PGlite();
  try {
    await pglite.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    kind: "pglite",
    poolUsage: () => ({ total: 1 }),
    sql: {
      query: async (text, params) => ({ rows: (await pglite.query(text, params)).rows as never[] }),
      exec: async (text) => void (await pglite.exec(text)),
    },
    close: async () => {
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
  { poolSize = 10, statementTimeoutMs = 0, onIdleConnectionError = () => {} }: DatabaseOptions,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    application_name: APPLICATION_NAME,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  });
  pool.on("error", onIdleConnectionError);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    kind: "postgresql",
    poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
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
