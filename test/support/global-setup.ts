import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createPGlite } from "../../src/platform/database/pglite.ts";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "../../src/platform/database/migrations.ts";
import { bundle } from "../../scripts/build.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated, empty embedded database (a PGlite dump) that every test file's fresh database starts from. */
    pgliteTemplate: string;
    /** The same database as a data directory, closed: a gateway process's embedded storage starts as a copy of it. */
    pgliteTemplateDir: string;
    /** src/main.ts bundled as `npm start` bundles it (scripts/build.ts), for the tests that start gateway processes. */
    gatewayBundle: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const MIGRATIONS_DIR = path.join(ROOT, "prisma/migrations");
/** Inside the checkout, so that the bundle's packages resolve from its node_modules (gitignored). */
const BUNDLES_DIR = path.join(ROOT, ".test-dist");

/**
 * Creating an embedded cluster costs seconds per test file; loading a dump of one costs about one. The template
 * is migrated here, once per run, so it always matches prisma/migrations. Gateway processes run a bundle built
 * here, once per run: run through tsx, each would transform the sources again.
 */
export default async function setup(project: TestProject) {
  mkdirSync(BUNDLES_DIR, { recursive: true });
  const bundleDir = mkdtempSync(path.join(BUNDLES_DIR, "run-"));
  const bundled = bundle(path.join(ROOT, "src/main.ts"), bundleDir);
  const directory = mkdtempSync(path.join(tmpdir(), "mg-template-"));
  const cleanUp = () => {
    rmSync(directory, { recursive: true, force: true });
    rmSync(bundleDir, { recursive: true, force: true });
  };
  try {
    // Also on the PostgreSQL pass: the gateway process tests' embedded data directories start from it there too.
    await migrateTemplate(project, directory);
    await bundled;
  } catch (error) {
    cleanUp();
    throw error;
  }
  project.provide("gatewayBundle", path.join(bundleDir, "main.js"));
  // In watch mode the sources change between runs; the bundle follows them.
  project.onTestsRerun(() => bundle(path.join(ROOT, "src/main.ts"), bundleDir));
  return cleanUp;
}

async function migrateTemplate(project: TestProject, directory: string) {
  const file = path.join(directory, "migrated.tar");
  const dataDir = path.join(directory, "data");
  const pglite = createPGlite({ dataDir });
  await applyMigrations(pglite, MIGRATIONS_DIR);
  const dump = await pglite.dumpDataDir("none");
  await pglite.close();
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
  project.provide("pgliteTemplateDir", dataDir);
}
