// npm run migrate:check [-- --schema <file>] — exits 1 when prisma/migrations does not produce
// schema.prisma (or the given schema file); CI runs it.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { LOCKFILE_NAME, MIGRATIONS_DIR, ROOT, computeDrift, engineErrorMessage, readSchemaFiles } from "./schema-engine.ts";

async function lockfileProblem(): Promise<string | null> {
  const file = path.join(MIGRATIONS_DIR, LOCKFILE_NAME);
  const content = await readFile(file, "utf8").catch(() => null);
  if (content === null) return `${path.relative(ROOT, file)} is missing (npm run migrate:create writes it).`;
  const provider = /^\s*provider\s*=\s*"([^"]*)"/m.exec(content)?.[1];
  return provider === "postgresql" ? null : `${path.relative(ROOT, file)} names provider "${provider ?? "?"}", expected "postgresql".`;
}

function schemaArgument(args: string[]): string | undefined {
  const i = args.findIndex((a) => a === "--schema" || a.startsWith("--schema="));
  if (i < 0) return undefined;
  const value = args[i]!.includes("=") ? args[i]!.slice("--schema=".length) : args[i + 1];
  if (!value) throw new Error("--schema needs a file");
  return path.resolve(value);
}

async function main(): Promise<number> {
  const schema = await readSchemaFiles(schemaArgument(process.argv.slice(2)));
  const schemaNames = schema.map((f) => f.path).join(", ");
  const drift = await computeDrift(schema);
  try {
    const lockProblem = drift.migrations.length > 0 ? await lockfileProblem() : null;
    if (drift.missingSql === null && lockProblem === null) {
      console.log(`OK: the ${drift.migrations.length} migration(s) in ${path.relative(ROOT, MIGRATIONS_DIR)} match ${schemaNames}.`);
      return 0;
    }
    if (lockProblem !== null) console.error(`Migration check failed: ${lockProblem}`);
    if (drift.missingSql !== null) {
      console.error(
        `Migration check failed: ${schemaNames} differs from the database that the ${drift.migrations.length} migration(s) in ` +
          `${path.relative(ROOT, MIGRATIONS_DIR)} produce. A new migration needs this SQL:\n\n${drift.missingSql.trimEnd()}\n\n` +
          `Create it with: npm run migrate:create -- <name>`,
      );
    }
    return 1;
  } finally {
    await drift.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`Migration check failed: ${engineErrorMessage(e)}`);
    process.exit(1);
  },
);
