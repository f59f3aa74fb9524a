/**
 * `npm run bench`: REST vs GraphQL vs a bare node:http+pg floor for one page of offering users, and REST state
 * transitions per second, on PostgreSQL (scratch database, dropped afterwards) and on embedded PGlite.
 * This process is the load generator; each server under test runs in a child process (bench/server.ts).
 *
 * Knobs (environment): BENCH_DURATION_S (5), BENCH_WARMUP_S (2), BENCH_CONNECTIONS (16),
 * BENCH_POSTGRES_URL (postgresql://postgres@127.0.0.1:5432/), BENCH_CPU_PROFILE_DIR (profile the servers).
 */
import os from "node:os";
import { runLoad, type RequestSpec } from "./load.ts";
import { computeRatios, formatTable, type Report, type Row, type Scenario, writeJson } from "./report.ts";
import { checkList, checkSameRows, graphqlListRequest, restListRequest, transitionRequests } from "./scenarios.ts";
import { createScratchDatabase, DEFAULT_SERVER_URL, probe } from "./scratch-database.ts";
import { SEEDED_OFFERING_USERS } from "./seed.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

const settings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
  warmupSeconds: Number(process.env.BENCH_WARMUP_S ?? 2),
  durationSeconds: Number(process.env.BENCH_DURATION_S ?? 5),
  seededOfferingUsers: SEEDED_OFFERING_USERS,
  pageSize: 10,
  serverPoolSize: 10,
};
const postgresServerUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_SERVER_URL;
const cpuProfileDir = process.env.BENCH_CPU_PROFILE_DIR || undefined;
const SCRATCH_DATABASE = "mg_bench";
const RESULTS_FILE = new URL("./results/latest.json", import.meta.url).pathname;

const rows: Row[] = [];
const skipped: string[] = [];
const log = (message: string) => console.error(`[bench] ${message}`);

async function measure(scenario: Scenario, server: ServerProcess, next: (worker: number) => RequestSpec, note?: string) {
  log(`${scenario} on ${server.database}: ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s, ${settings.connections} connections`);
  const result = await runLoad({
    baseUrl: server.baseUrl,
    connections: settings.connections,
    warmupMs: settings.warmupSeconds * 1000,
    durationMs: settings.durationSeconds * 1000,
    next,
  });
  log(`  ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ${result.errors} errors`);
  rows.push({ scenario, database: server.database, result, note });
}

/** REST then GraphQL on one gateway process, same data, same token. */
async function measureReads(app: ServerProcess) {
  const token = app.token!;
  const page = await checkList(app.baseUrl, token, SEEDED_OFFERING_USERS, true);
  const rest = restListRequest(token);
  const gql = graphqlListRequest(token);
  await measure("rest-list", app, () => rest);
  await measure("graphql-list", app, () => gql);
  return page;
}

async function measureTransitions(app: ServerProcess) {
  const { next, offeringUsers } = await transitionRequests(app.baseUrl, app.token!, settings.connections);
  await measure("rest-transitions", app, next, `${offeringUsers} offering users, each request one transaction + event`);
}

async function postgresqlRound(version: string) {
  const scratch = await createScratchDatabase(postgresServerUrl, SCRATCH_DATABASE);
  log(`PostgreSQL ${version}: scratch database ${SCRATCH_DATABASE}`);
  const servers: ServerProcess[] = [];
  try {
    const app = await startServer({ kind: "app", databaseUrl: scratch.url, seed: true, cpuProfileDir });
    servers.push(app);
    const page = await measureReads(app);
    const bare = await startServer({ kind: "bare", databaseUrl: scratch.url, cpuProfileDir });
    servers.push(bare);
    checkSameRows(page, await checkList(bare.baseUrl, app.token!, SEEDED_OFFERING_USERS, false));
    const token = app.token!;
    const floorRequest = restListRequest(token);
    await measure("bare-list", bare, () => floorRequest, "token lookup, then count + page in parallel; hand-written JSON");
    await bare.stop();
    await measureTransitions(app);
  } finally {
    for (const server of servers) await server.stop();
    await scratch.drop();
    log(`dropped ${SCRATCH_DATABASE}`);
  }
}

async function pgliteRound() {
  const app = await startServer({ kind: "app", seed: true, cpuProfileDir });
  try {
    await measureReads(app);
    await measureTransitions(app);
  } finally {
    await app.stop();
  }
}

async function main() {
  const startedAt = new Date().toISOString();
  const pg = await probe(postgresServerUrl);
  if ("version" in pg) await postgresqlRound(pg.version);
  else {
    const reason = `PostgreSQL at ${postgresServerUrl} is not reachable (${pg.unreachable}); PostgreSQL and bare-floor rows skipped`;
    skipped.push(reason);
    log(reason);
  }
  await pgliteRound();

  const report: Report = {
    startedAt,
    machine: {
      cpus: os.availableParallelism(),
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
      postgresql: "version" in pg ? pg.version : null,
      layout: "load generator = this process; each server in its own child process",
    },
    settings,
    skipped,
    rows,
    ratios: computeRatios(rows),
  };
  console.log(formatTable(report));
  writeJson(report, RESULTS_FILE);
  log(`figures written to ${RESULTS_FILE}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
