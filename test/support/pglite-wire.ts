import { readFileSync } from "node:fs";
import type pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { inject } from "vitest";
import { PrismaClient } from "../../src/generated/prisma/client.ts";
import type { Database } from "../../src/platform/database/connect.ts";
import { runsLoneStatementsOn } from "../../src/platform/database/lone-statement.ts";
import { applyMigrations } from "../../src/platform/database/migrations.ts";
import { createPGlite } from "../../src/platform/database/pglite.ts";
import { pgliteWirePool } from "../../src/platform/database/pglite-wire.ts";
import { loadDeploymentSettings } from "../../src/platform/settings/deployment-settings.ts";
import { freshDatabase, type PoolOptions } from "./database.ts";



/**
 * A fresh embedded database (the migrated template) whose statements that commit alone and whose compiled reads go
 * through a node-postgres pool, as on PostgreSQL (`runText`, `runStatement`), over PGlite's wire protocol: the path
 * production takes, in `npm test`. Prisma's own queries and transactions go through its PGlite adapter as usual.
 */
export async function embeddedDatabaseOnPool({
  preparedStatements = loadDeploymentSettings({}).databasePreparedStatements,
  commitGroups = loadDeploymentSettings({}).databaseCommitGroups,
}: Pick<PoolOptions, "preparedStatements" | "commitGroups"> = {}): Promise<Database & { pool: pg.Pool; drop(): Promise<void> }> {
  const template = inject("pgliteTemplate");
  const pglite = createPGlite(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {});
  await pglite.waitReady;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const pool = pgliteWirePool(pglite);
  runsLoneStatementsOn(prisma, pool, { preparedPerConnection: preparedStatements, groupsAtOnce: commitGroups });
  const close = async () => {
    await pool.end();
    await prisma.$disconnect();
    await pglite.close();
  };
  return {
    prisma,
    kind: "pglite",
    poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    sql: {
      query: async <T,>(text: string, params?: unknown[]) => ({ rows: (await pglite.query<T>(text, params)).rows }),
      exec: async (text) => void (await pglite.exec(text)),
    },
    close,
    drop: close,
    pool,
  };
}

const MIGRATIONS_DIR = new URL("../../prisma/migrations", import.meta.url).pathname;

/**
 * A fresh, migrated database whose lone statements and compiled reads take production's path, a node-postgres pool:
 * PostgreSQL's with TEST_DATABASE_URL (`freshDatabase`), else the embedded one over its wire protocol.
 */
export async function databaseOnPool(options: PoolOptions = {}): Promise<Database & { drop(): Promise<void> }> {
  if (!process.env.TEST_DATABASE_URL) return embeddedDatabaseOnPool(options);
  const database = await freshDatabase(options);
  await applyMigrations(database.sql, MIGRATIONS_DIR);
  return database;
}
