import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * Raw SQL access. A PGlite instance fits as it is. Calls need not share a connection (a pg Pool
 * is fine): each migration runs as one `exec` script. `exec`'s result is ignored.
 */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(text: string): Promise<unknown>;
}

export interface LocalMigration {
  name: string;
  script: string;
  checksum: string;
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
}

// Prisma's own lock id and table layout, so the native engine accepts this history as its own.
const LOCK_ID = 72707369;
const TABLE = "_prisma_migrations";
const CREATE_TABLE = `CREATE TABLE "${TABLE}" (
    "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"            VARCHAR(64) NOT NULL,
    "finished_at"         TIMESTAMPTZ,
    "migration_name"      VARCHAR(255) NOT NULL,
    "logs"                TEXT,
    "rolled_back_at"      TIMESTAMPTZ,
    "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;
const ALREADY_APPLIED = "migration already applied by another process";

export function migrationChecksum(script: string): string {
  return createHash("sha256").update(script, "utf8").digest("hex");
}

// Like Prisma, accept a checksum taken before git converted the line endings.
function checksumMatches(script: string, checksum: string): boolean {
  const variants = [script, script.replace(/\r\n/g, "\n"), script.replace(/\r?\n/g, "\r\n")];
  return variants.some((s) => migrationChecksum(s) === checksum);
}

/** `<dir>/<name>/migration.sql`, in name order. */
export async function readMigrations(migrationsDir: string): Promise<LocalMigration[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch((e: unknown) => {
    throw new Error(`Cannot read the migrations directory ${migrationsDir}: ${errorMessage(e)}`, { cause: e });
  });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      const script = await readFile(file, "utf8").catch((e: unknown) => {
        throw new Error(`Migration ${name} has no readable migration.sql (${file}): ${errorMessage(e)}`, { cause: e });
      });
      return { name, script, checksum: migrationChecksum(script) };
    }),
  );
}

async function appliedRows(sql: SqlExecutor): Promise<AppliedRow[]> {
  const { rows: found } = await sql.query<{ t: string | null }>(`SELECT to_regclass('"${TABLE}"')::text AS t`);
  if (found[0]?.t == null) return [];
  const { rows } = await sql.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at FROM "${TABLE}" WHERE rolled_back_at IS NULL ORDER BY started_at`,
  );
  return rows;
}

/** Local migrations not yet applied; throws if the history is broken (failed or edited migrations). */
function unapplied(local: LocalMigration[], rows: AppliedRow[]): LocalMigration[] {
  const failed = rows.filter((r) => r.finished_at == null).map((r) => r.migration_name);
  if (failed.length > 0) {
    throw new Error(
      `Migration(s) ${failed.join(", ")} failed earlier (finished_at is null in ${TABLE}). Repair the database by hand, ` +
        `then mark them rolled back (UPDATE "${TABLE}" SET rolled_back_at = now() WHERE migration_name = '…') and retry.`,
    );
  }
  const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
  const edited = local.filter((m) => applied.has(m.name) && !checksumMatches(m.script, applied.get(m.name)!));
  if (edited.length > 0) {
    throw new Error(
      `Migration(s) ${edited.map((m) => m.name).join(", ")} were modified after being applied (checksum mismatch in ${TABLE}). ` +
        `Restore the applied file(s) and put the change in a new migration.`,
    );
  }
  return local.filter((m) => !applied.has(m.name));
}

export async function pendingMigrations(sql: SqlExecutor, migrationsDir: string): Promise<string[]> {
  const local = await readMigrations(migrationsDir);
  return unapplied(local, await appliedRows(sql)).map((m) => m.name);
}

/** Applies the pending migrations in name order and returns the names applied by this call. */
export async function applyMigrations(sql: SqlExecutor, migrationsDir: string): Promise<string[]> {
  const local = await readMigrations(migrationsDir);
  const done: string[] = [];
  for (const m of unapplied(local, await appliedRows(sql))) {
    try {
      await sql.exec(transactionScript(m));
      done.push(m.name);
    } catch (e) {
      if (errorMessage(e).includes(ALREADY_APPLIED)) continue;
      const before = done.length > 0 ? ` (applied before it: ${done.join(", ")})` : "";
      throw new Error(`Migration ${m.name} failed and was rolled back${before}: ${errorMessage(e)}`, { cause: e });
    }
  }
  return done;
}

/**
 * One multi-statement script is one implicit transaction on a single connection: the lock (the key
 * Prisma's engine locks), the re-check made under it, the migration and its record commit or roll back together.
 */
function transactionScript(m: LocalMigration): string {
  const name = literal(m.name);
  return `SELECT pg_advisory_xact_lock(${LOCK_ID});
DO $migration_guard$ BEGIN
  IF to_regclass('"${TABLE}"') IS NULL THEN
    ${CREATE_TABLE};
  END IF;
  IF EXISTS (SELECT 1 FROM "${TABLE}" WHERE migration_name = ${name} AND rolled_back_at IS NULL) THEN
    RAISE EXCEPTION '${ALREADY_APPLIED}: %', ${name};
  END IF;
END $migration_guard$;
${m.script}
;
INSERT INTO "${TABLE}" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
VALUES (${literal(randomUUID())}, ${literal(m.checksum)}, ${name}, now(), clock_timestamp(), 1);`;
}

function literal(value: string): string {
  if (value.includes("\0")) throw new Error(`Invalid migration name ${JSON.stringify(value)}`);
  return `'${value.replace(/'/g, "''")}'`;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
