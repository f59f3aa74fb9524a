/**
 * Bundles src/main.ts into dist/ for `npm start` (node_modules stay external, resolved at run time).
 * `--if-stale`: only when src/, rest-adapter/, prisma/schema.prisma, package-lock.json or this script is newer than dist/main.js.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");
const DIST = path.join(ROOT, "dist");
export const BUILT_ENTRY = path.join(DIST, "main.js");
const INPUTS = ["src", "rest-adapter", "prisma/schema.prisma", "package-lock.json", "scripts/build.ts"].map((input) => path.join(ROOT, input));

/** Bundled files live in `outdir`: their `import.meta.url` (files next to them, package.json) must still name the source file. */
const sourceImportMetaUrl = (outdir: string): Plugin => ({
  name: "source-import-meta-url",
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, ({ path: file }) => {
      if (file.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const relative = JSON.stringify(path.relative(outdir, file).split(path.sep).join("/"));
      const contents = fs.readFileSync(file, "utf8").replaceAll("import.meta.url", `new URL(${relative}, import.meta.url).href`);
      return { contents, loader: "ts" };
    });
  },
});

function newestInput(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestInput(path.join(entry, name))));
}

export function isStale(): boolean {
  const built = fs.statSync(BUILT_ENTRY, { throwIfNoEntry: false });
  return !built || Math.max(...INPUTS.map(newestInput)) > built.mtimeMs;
}

/** Node's arguments in package.json's start script (`node --flags dist/main.js`). */
export function startArguments(): string[] {
  const manifest: { scripts: Record<string, string> } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const [program, ...args] = manifest.scripts.start.trim().split(/\s+/);
  if (program !== "node") throw new Error(`package.json's start script does not run node: ${manifest.scripts.start}`);
  return args;
}

/** The start script's Node flags without its entry: what another bundled entry (the bench's servers) runs with. */
export const startFlags = () => startArguments().filter((arg) => arg.startsWith("-"));

/**
 * Bundles `entry` into `outdir` as `npm start` runs: node_modules stay external, resolved at run time; lazy imports
 * (the embedded database, the broker) become chunks of their own, loaded only when used. `runsFrom`: where the
 * bundle will be run from, when it is moved there after the build.
 */
export async function bundle(entry: string, outdir: string, runsFrom = outdir) {
  await build({
    entryPoints: [entry],
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    // Stack traces name src/ lines (--enable-source-maps); without the sources' text the map costs ~5 MB of RSS instead of ~20.
    sourcemap: true,
    sourcesContent: false,
    plugins: [sourceImportMetaUrl(runsFrom)],
    logLevel: "warning",
  });
}

/** Builds beside dist/ and swaps it in: dist/ is never half-written. */
export async function buildDist() {
  const next = `${DIST}.next-${process.pid}`;
  try {
    await bundle(path.join(ROOT, "src/main.ts"), next, DIST);
    fs.rmSync(DIST, { recursive: true, force: true });
    fs.renameSync(next, DIST);
  } finally {
    fs.rmSync(next, { recursive: true, force: true });
  }
}

export async function buildIfStale() {
  if (isStale()) await buildDist();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const started = Date.now();
  if (process.argv.includes("--if-stale") && !isStale()) process.exit(0);
  await buildDist();
  console.error(`Built ${path.relative(ROOT, BUILT_ENTRY)} in ${Date.now() - started} ms.`);
}
