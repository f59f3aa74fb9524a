import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/platform/database/connect.ts";
import { applyMigrations } from "../../src/platform/database/migrations.ts";
import { loadDeploymentSettings } from "../../src/platform/settings/deployment-settings.ts";

/** The deployed default statement timeout: tests open PostgreSQL as a gateway does. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = loadDeploymentSettings({}).databaseStatementTimeoutMs;

/** The pool's size (PostgreSQL's; the embedded database has one session), the statements each connection keeps prepared and the commit groups in flight (the deployed defaults unless given). */
export interface PoolOptions {
  poolSize?: number;
  preparedStatements?: number;
  commitGroups?: number;
}

/**
 * A fresh database for one test file: in-memory PGlite (the migrated template) by default; with TEST_DATABASE_URL a
 * new, empty database on that PostgreSQL server, dropped again by `drop()`.
 */
export async function freshDatabase({ poolSize = 5, preparedStatements, commitGroups }: PoolOptions = {}): Promise<Database & { url?: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({ pgliteDump: migratedTemplate(), preparedStatements, commitGroups });
    return { ...database, drop: () => database.close() };
  }
  const name = `mg_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize, preparedStatements, commitGroups, statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS });
  return {
    ...database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** The migrated template the global setup dumped (read once per test file), or none outside vitest's run. */
let template: Blob | undefined;
function migratedTemplate(): Blob | undefined {
  const file = inject("pgliteTemplate");
  if (file && !template) template = new Blob([readFileSync(file)]);
  return template;
}

const MIGRATIONS_DIR = new URL("../../prisma/migrations", import.meta.url).pathname;

/** A fresh database, migrated on PostgreSQL too (`freshDatabase`'s embedded one starts migrated). */
export async function migratedDatabase(options: PoolOptions = {}): Promise<Database & { drop(): Promise<void> }> {
  const database = await freshDatabase(options);
  if (process.env.TEST_DATABASE_URL) await applyMigrations(database.sql, MIGRATIONS_DIR);
  return database;
}
