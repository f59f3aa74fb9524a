import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { MIGRATIONS_DIR } from "../../src/app.ts";
import { type Database, openDatabase } from "../../src/platform/database/connect.ts";
import { DEFAULT_STATEMENT_TIMEOUT_MS } from "./database.ts";
import { applyMigrations } from "../../src/platform/database/migrations.ts";

/** Where gateway processes started by a test keep their data, and how the test itself reaches it. */
export interface GatewayStorage {
  kind: "pglite" | "postgresql";
  /** Points a gateway process at this storage. */
  env: Record<string, string>;
  /** Opens it (migrated) from the test process; the embedded database only while no gateway holds it. */
  open(): Promise<Database>;
  /** For PostgreSQL: the database's own URL, for connections of the test (locks, pg_stat_activity). */
  url?: string;
  /** For the embedded database: its data directory (absolute). */
  dataDir?: string;
  dispose(): Promise<void>;
}

async function migrated(database: Database): Promise<Database> {
  await applyMigrations(database.sql, MIGRATIONS_DIR);
  return database;
}

/**
 * Makes `dataDir` a copy of the global setup's migrated, empty data directory (creating and migrating a cluster costs
 * seconds, copying one a fraction of one).
 */
export function copyMigratedDataDir(dataDir: string) {
  cpSync(inject("pgliteTemplateDir"), dataDir, { recursive: true });
}

/** An embedded (PGlite) data directory of its own under the system's temporary directory, migrated. */
export function embeddedStorage(): GatewayStorage {
  const root = mkdtempSync(path.join(tmpdir(), "gateway-storage-"));
  const dataDir = path.join(root, "data");
  copyMigratedDataDir(dataDir);
  return {
    kind: "pglite",
    env: { GATEWAY_DATA_DIR: dataDir },
    dataDir,
    open: async () => migrated(await openDatabase({ dataDir })),
    dispose: async () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A new database on TEST_DATABASE_URL's server, dropped by `dispose`. */
export async function postgresStorage(serverUrl: string): Promise<GatewayStorage> {
  const name = `mg_test_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    kind: "postgresql",
    env: { DATABASE_URL: url.toString() },
    url: url.toString(),
    open: async () => migrated(await openDatabase({ databaseUrl: url.toString(), poolSize: 3, statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS })),
    dispose: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
