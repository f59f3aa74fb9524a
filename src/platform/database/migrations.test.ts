import { readFileSync } from "node:fs";
import { mkdtemp, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { createPGlite } from "./pglite.ts";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { afterEach, describe, expect, inject, it } from "vitest";
import { applyMigrations, migrationChecksum, pendingMigrations } from "./migrations.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));

const open: PGlite[] = [];
async function freshDb(): Promise<PGlite> {
  const db = createPGlite();
  open.push(db);
  return db;
}
/**
 * A database with prisma/migrations applied: the global setup's template (applyMigrations made it), or one migrated
 * here outside vitest's run. Migrating costs seconds; the first test shows it from empty.
 */
async function migratedDb(): Promise<PGlite> {
  const template = inject("pgliteTemplate");
  if (!template) {
    const db = await freshDb();
    await applyMigrations(db, MIGRATIONS_DIR);
    return db;
  }
  const db = createPGlite({ loadDataDir: new Blob([readFileSync(template)]) });
  open.push(db);
  return db;
}
const localMigrations = async () => (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();

afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
});

async function tables(db: PGlite): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

describe("applyMigrations", () => {
  it("applies prisma/migrations to an empty database, records them, then has nothing left to do", async () => {
    const db = await freshDb();
    const local = await localMigrations();
    expect(local.length).toBeGreaterThan(0);
    expect(await pendingMigrations(db, MIGRATIONS_DIR)).toEqual(local);

    expect(await applyMigrations(db, MIGRATIONS_DIR)).toEqual(local);

    expect(await tables(db)).toEqual(expect.arrayContaining(["_prisma_migrations", "users", "auth_tokens", "offerings", "events"]));
    const { rows } = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(local);
    for (const r of rows) {
      expect(r.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.applied_steps_count).toBe(1);
    }

    expect(await applyMigrations(db, MIGRATIONS_DIR)).toEqual([]);
    expect(await pendingMigrations(db, MIGRATIONS_DIR)).toEqual([]);
  });

  it("refuses to run when an applied migration's file changed", async () => {
    const db = await migratedDb();
    await db.query(`UPDATE _prisma_migrations SET checksum = $1`, [migrationChecksum("-- something else\n")]);

    await expect(applyMigrations(db, MIGRATIONS_DIR)).rejects.toThrow(/modified after being applied/);
    await expect(pendingMigrations(db, MIGRATIONS_DIR)).rejects.toThrow(/checksum mismatch/);
  });

  it("refuses to run after a failed migration (finished_at null) until it is marked rolled back", async () => {
    const db = await migratedDb();
    const [first] = await localMigrations();
    expect(await pendingMigrations(db, MIGRATIONS_DIR)).toEqual([]);
    await db.query(`UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = $1`, [first]);
    await expect(applyMigrations(db, MIGRATIONS_DIR)).rejects.toThrow(/failed earlier/);

    await db.query(`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = $1`, [first]);
    await db.exec(`DROP SCHEMA public CASCADE; CREATE SCHEMA public;`);
    expect(await applyMigrations(db, MIGRATIONS_DIR)).toContain(first);
  });

  it("rolls back a failing migration together with its record, keeping the ones before it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "migrations-"));
    try {
      const write = async (name: string, sql: string) => {
        await mkdir(path.join(dir, name));
        await writeFile(path.join(dir, name, "migration.sql"), sql);
      };
      await write("20250101000000_ok", `CREATE TABLE a (id int PRIMARY KEY);`);
      await write("20250102000000_bad", `CREATE TABLE b (id int PRIMARY KEY);\nINSERT INTO missing_table VALUES (1);`);
      const db = await freshDb();

      await expect(applyMigrations(db, dir)).rejects.toThrow(/20250102000000_bad failed and was rolled back.*missing_table/);
      expect(await tables(db)).toEqual(["_prisma_migrations", "a"]);
      expect(await pendingMigrations(db, dir)).toEqual(["20250102000000_bad"]);

      await writeFile(path.join(dir, "20250102000000_bad", "migration.sql"), `CREATE TABLE b (id int PRIMARY KEY);`);
      expect(await applyMigrations(db, dir)).toEqual(["20250102000000_bad"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
