// npm run migrate — applies prisma/migrations to DATABASE_URL (postgres://…) or else to the PGlite
// data directory GATEWAY_DATA_DIR (default ./data).
import { mkdir } from "node:fs/promises";
import { createPGlite } from "../src/platform/database/pglite.ts";
import path from "node:path";
import pg from "pg";
import prismaConfig from "../prisma.config.ts";
import { applyMigrations, type SqlExecutor } from "../src/platform/database/migrations.ts";

const root = path.resolve(import.meta.dirname, "..");
const migrationsDir = path.resolve(root, prismaConfig.migrations?.path ?? "prisma/migrations");

interface Target {
  label: string;
  sql: SqlExecutor;
  close(): Promise<void>;
}

async function openTarget(): Promise<Target> {
  const url = process.env.DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { host, port, database } = client;
    const sql: SqlExecutor = {
      query: async <T>(text: string, params?: unknown[]) => ({ rows: (await client.query(text, params)).rows as T[] }),
      exec: (text: string) => client.query(text),
    };
    return { label: `PostgreSQL ${host}:${port}/${database}`, sql, close: () => client.end() };
  }
  const dataDir = path.resolve(process.env.GATEWAY_DATA_DIR ?? "./data");
  await mkdir(path.dirname(dataDir), { recursive: true });
  const db = createPGlite({ dataDir });
  await db.waitReady;
  return { label: `PGlite ${dataDir}`, sql: db, close: () => db.close() };
}

async function main(): Promise<void> {
  const target = await openTarget();
  try {
    const applied = await applyMigrations(target.sql, migrationsDir);
    if (applied.length === 0) console.log(`${target.label}: up to date, no migration to apply.`);
    else console.log(`${target.label}: applied ${applied.length} migration(s):\n${applied.map((n) => `  ${n}`).join("\n")}`);
  } finally {
    await target.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`migrate failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
