// npm run migrate:create -- <name>
// Writes prisma/migrations/<UTC timestamp>_<name>/migration.sql with the SQL that takes the
// existing migrations to the current schema.prisma; writes nothing when they already agree.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  LOCKFILE_CONTENT,
  LOCKFILE_NAME,
  MIGRATIONS_DIR,
  ROOT,
  computeDrift,
  diffDatabaseToSchema,
  engineErrorMessage,
  readSchemaFiles,
} from "./schema-engine.ts";

function migrationSlug(raw: string | undefined): string {
  const slug = (raw ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 200);
  if (!slug) {
    console.error("Usage: npm run migrate:create -- <name>   (e.g. npm run migrate:create -- add_offering_terms)");
    process.exit(2);
  }
  return slug;
}

function utcTimestamp(date = new Date()): string {
  return date.toISOString().replace(/\D/g, "").slice(0, 14);
}

/** "CreateTable ×12, CreateIndex ×17": the engine heads each step with a `-- Step` comment. */
function summary(sql: string): string {
  const counts = new Map<string, number>();
  for (const [, step] of sql.matchAll(/^-- (\w+)$/gm)) counts.set(step!, (counts.get(step!) ?? 0) + 1);
  return [...counts].map(([step, n]) => `${step} ×${n}`).join(", ");
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const slug = migrationSlug(args[0] === "--name" ? args[1] : args[0]);
  const schema = await readSchemaFiles();
  await mkdir(MIGRATIONS_DIR, { recursive: true });
  const drift = await computeDrift(schema);
  try {
    const rel = (p: string) => path.relative(ROOT, p);
    if (drift.missingSql === null) {
      console.log(`No changes: the ${drift.migrations.length} migration(s) in ${rel(MIGRATIONS_DIR)} already match ${schema.map((f) => f.path).join(", ")}. Nothing written.`);
      return 0;
    }
    const name = `${utcTimestamp()}_${slug}`;
    const latest = drift.migrations.at(-1);
    if (latest !== undefined && latest >= name) {
      console.error(`Migration ${latest} sorts after ${name} (clock skew, or one created this very second?): not writing.`);
      return 1;
    }

    // The new SQL must bring the scratch database exactly to the schema; otherwise say so loudly.
    await drift.db.exec(drift.missingSql);
    const residue = await diffDatabaseToSchema(drift.engine, schema);

    const dir = path.join(MIGRATIONS_DIR, name);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "migration.sql"), drift.missingSql, "utf8");
    const lockfile = path.join(MIGRATIONS_DIR, LOCKFILE_NAME);
    const hadLockfile = existsSync(lockfile);
    await writeFile(lockfile, LOCKFILE_CONTENT, "utf8");

    console.log(`Created ${rel(path.join(dir, "migration.sql"))}${hadLockfile ? "" : ` and ${rel(lockfile)}`}: ${summary(drift.missingSql)}`);
    if (drift.missingSql.split("\n").length <= 40) console.log(`\n${drift.missingSql.trimEnd()}`);
    if (residue !== null) {
      console.error(`\nWARNING: after applying this migration the database still differs from the schema by:\n${residue}`);
      return 1;
    }
    return 0;
  } finally {
    await drift.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`migrate:create failed: ${engineErrorMessage(e)}`);
    process.exit(1);
  },
);
