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
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize) : openPglite(options.dataDir);
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

async function openPostgres(connectionString: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    kind: "postgresql",
    poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    sql: {
      query: async (text, params) => ({ rows: (await pool.query(text, params as unknown[])).rows }),
      exec: async (text) => void (await pool.query(text)),
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
