import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createPGlite } from "../../src/platform/database/pglite.ts";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "../../src/platform/database/migrations.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated, empty embedded database (a PGlite dump) that every test file's fresh database starts from. */
    pgliteTemplate: string;
  }
}

const MIGRATIONS_DIR = new URL("../../prisma/migrations", import.meta.url).pathname;

/**
 * Creating an embedded cluster costs seconds per test file; loading a dump of one costs about one. The template
 * is migrated here, once per run, so it always matches prisma/migrations.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) return project.provide("pgliteTemplate", "");
  const directory = mkdtempSync(path.join(tmpdir(), "mg-template-"));
  const file = path.join(directory, "migrated.tar");
  const pglite = createPGlite();
  await applyMigrations(pglite, MIGRATIONS_DIR);
  const dump = await pglite.dumpDataDir("none");
  await pglite.close();
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
  return () => rmSync(directory, { recursive: true, force: true });
}
