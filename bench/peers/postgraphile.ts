import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PERF_NODE_FLAGS, perfAvailability } from "../perf-record.ts";
import { type PeerServer, startExternalServer } from "./external-server.ts";

/**
 * PostGraphile 5 for the peers scenario, installed at bench time into a scratch folder of its own (.bench/ is
 * gitignored) rather than as a devDependency, so `npm ci` stays as it is; bench/peers/postgraphile-server.mjs is
 * copied next to its node_modules and run there.
 */
const FOLDER = new URL("../../.bench/peers/postgraphile/", import.meta.url).pathname;
const SERVER_SCRIPT = new URL("./postgraphile-server.mjs", import.meta.url).pathname;
const MANIFEST = { name: "bench-peer-postgraphile", private: true, dependencies: { postgraphile: "^5" } };
const INSTALL_TIMEOUT_MS = 300_000;

const installedManifest = path.join(FOLDER, "node_modules", "postgraphile", "package.json");
export const installedVersion = (): string | undefined =>
  fs.existsSync(installedManifest) ? (JSON.parse(fs.readFileSync(installedManifest, "utf8")) as { version: string }).version : undefined;

function npmInstall(): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const npm = spawn("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: FOLDER, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    npm.stdout.on("data", (chunk) => (output += chunk));
    npm.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => npm.kill("SIGKILL"), INSTALL_TIMEOUT_MS);
    npm.once("error", (error) => ((output += error.message), resolve({ status: null, output })));
    npm.once("close", (status) => (clearTimeout(timer), resolve({ status, output })));
  });
}

/** The installed version (installing it when missing: `npm install` in the scratch folder), or why there is none. */
export async function installPostGraphile(log: (message: string) => void): Promise<{ version: string } | { unavailable: string }> {
  const before = installedVersion();
  if (before?.startsWith("5.")) return { version: before };
  fs.mkdirSync(FOLDER, { recursive: true });
  fs.writeFileSync(path.join(FOLDER, "package.json"), `${JSON.stringify(MANIFEST, null, 2)}\n`);
  log(`peers: installing PostGraphile 5 into ${path.relative(process.cwd(), FOLDER)} (npm install)`);
  const npm = await npmInstall();
  const version = installedVersion();
  if (npm.status === 0 && version) return { version };
  const reason = npm.output.trim().split("\n").filter((line) => !line.includes("EBADENGINE")).slice(-3).join(" | ");
  return { unavailable: `npm install postgraphile@5 in ${FOLDER} failed (${npm.status === null ? "killed or not started" : `exit ${npm.status}`}): ${reason}` };
}

/** `perfDir`: record its on-CPU profile there as the bench's own servers' (BENCH_PERF_DIR), when perf runs here. */
export function startPostGraphile(databaseUrl: string, poolSize: number, pinTo?: { taskset: string; cpu: number }, perfDir?: string): Promise<PeerServer> {
  const script = path.join(FOLDER, "server.mjs");
  fs.copyFileSync(SERVER_SCRIPT, script);
  const perf = perfDir ? perfAvailability() : undefined;
  const profiled = perfDir && perf && "perf" in perf ? { tool: perf.perf, dir: perfDir } : undefined;
  return startExternalServer({
    name: "postgraphile",
    command: process.execPath,
    args: [...(profiled ? PERF_NODE_FLAGS : []), script],
    perf: profiled,
    cwd: FOLDER,
    env: { DATABASE_URL: databaseUrl, POOL_SIZE: String(poolSize), NODE_ENV: "production" },
    listening: /"port":\s*(\d+)/,
    pinTo,
  });
}
