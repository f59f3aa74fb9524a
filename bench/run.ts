/**
 * `npm run bench`: REST vs GraphQL vs a bare node:http+pg floor for one page of offering users, and REST state
 * transitions per second, on PostgreSQL (scratch database, dropped afterwards) and on embedded PGlite.
 * This process is the load generator; each server under test runs in a child process (bench/server.ts).
 *
 * Knobs (environment): BENCH_DURATION_S (5), BENCH_WARMUP_S (2), BENCH_CONNECTIONS (16), BENCH_READ_ROUNDS (2),
 * BENCH_POSTGRES_URL (postgresql://postgres@127.0.0.1:5432/), BENCH_CPU_PROFILE_DIR (profile the servers).
 */
import os from "node:os";
import { alternatingLatency, type LoadResult, pool, runLoad, type RequestSpec } from "./load.ts";
import { computeRatios, formatTable, type Report, type Row, type Scenario, type ServiceTime, writeJson } from "./report.ts";
import { checkList, checkSameRows, graphqlListRequest, restListRequest, transitionRequests } from "./scenarios.ts";
import { createScratchDatabase, DEFAULT_SERVER_URL, probe } from "./scratch-database.ts";
import { SEEDED_OFFERING_USERS } from "./seed.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

const settings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
  warmupSeconds: Number(process.env.BENCH_WARMUP_S ?? 2),
  durationSeconds: Number(process.env.BENCH_DURATION_S ?? 5),
  /** REST and GraphQL reads alternate in this many rounds (the duration is split between them). */
  readRounds: Number(process.env.BENCH_READ_ROUNDS ?? 4),
  /** Then one connection alternating REST and GraphQL requests: unloaded service time of each. */
  serviceTimeSeconds: Number(process.env.BENCH_SERVICE_TIME_S ?? 3),
  seededOfferingUsers: SEEDED_OFFERING_USERS,
  pageSize: 10,
  serverPoolSize: 10,
};
const postgresServerUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_SERVER_URL;
const cpuProfileDir = process.env.BENCH_CPU_PROFILE_DIR || undefined;
const RE_WARMUP_SECONDS = 0.5;
const SCRATCH_DATABASE = "mg_bench";
const RESULTS_FILE = new URL("./results/latest.json", import.meta.url).pathname;

const rows: Row[] = [];
const skipped: string[] = [];
const serviceTimes: ServiceTime[] = [];
const log = (message: string) => console.error(`[bench] ${message}`);

interface Segment {
  scenario: Scenario;
  next: (worker: number) => RequestSpec;
}

/** Warm-up (discarded), then the measured run, with the server's CPU time over the measured run. */
async function loadSegment(server: ServerProcess, segment: Segment, warmupSeconds: number, durationSeconds: number) {
  const run = (seconds: number) =>
    runLoad({ baseUrl: server.baseUrl, connections: settings.connections, warmupMs: 0, durationMs: seconds * 1000, next: segment.next });
  if (warmupSeconds > 0) await run(warmupSeconds);
  const cpuBefore = await server.cpuMs();
  const measured = await run(durationSeconds);
  const result = { ...measured, serverCpuMsPerRequest: ((await server.cpuMs()) - cpuBefore) / measured.requests };
  log(
    `  ${segment.scenario} on ${server.database}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, ` +
      `p99 ${result.p99Ms.toFixed(2)} ms, server CPU ${result.serverCpuMsPerRequest.toFixed(2)} ms/req, ${result.errors} errors`,
  );
  return result;
}

/**
 * Alternates the segments (A B A B …) for `rounds` rounds, so that load from anything else on the machine falls on
 * all of them alike; each gets the full warm-up before its first round and a short one before the others.
 */
async function measure(server: ServerProcess, segments: Segment[], rounds: number, note?: string) {
  log(`${segments.map((s) => s.scenario).join(" / ")} on ${server.database}: ${rounds} round(s) of ${settings.durationSeconds / rounds} s each, ${settings.connections} connections`);
  const runs = segments.map(() => [] as LoadResult[]);
  for (let round = 0; round < rounds; round++) {
    for (const [i, segment] of segments.entries()) {
      const warmup = round === 0 ? settings.warmupSeconds : RE_WARMUP_SECONDS;
      runs[i].push(await loadSegment(server, segment, warmup, settings.durationSeconds / rounds));
    }
  }
  segments.forEach((segment, i) =>
    rows.push({ scenario: segment.scenario, database: server.database, result: pool(runs[i]), roundRps: runs[i].map((r) => r.rps), note }),
  );
}

/** REST and GraphQL alternating on one gateway process, same data, same token. */
async function measureReads(app: ServerProcess) {
  const token = app.token!;
  const page = await checkList(app.baseUrl, token, SEEDED_OFFERING_USERS, true);
  const rest = restListRequest(token);
  const gql = graphqlListRequest(token);
  await measure(app, [{ scenario: "rest-list", next: () => rest }, { scenario: "graphql-list", next: () => gql }], settings.readRounds);
  const [restAlone, gqlAlone] = await alternatingLatency(app.baseUrl, [rest, gql], settings.serviceTimeSeconds * 1000);
  log(`  one connection, alternating: REST p50 ${restAlone.p50Ms.toFixed(2)} ms, GraphQL p50 ${gqlAlone.p50Ms.toFixed(2)} ms`);
  serviceTimes.push({ database: app.database, restP50Ms: restAlone.p50Ms, graphqlP50Ms: gqlAlone.p50Ms, samples: restAlone.requests });
  return page;
}

async function measureTransitions(app: ServerProcess) {
  const { next, offeringUsers } = await transitionRequests(app.baseUrl, app.token!, settings.connections);
  await measure(app, [{ scenario: "rest-transitions", next }], 1, `${offeringUsers} offering users; each request one transaction + event`);
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
    const missing = checkSameRows(page, await checkList(bare.baseUrl, app.token!, SEEDED_OFFERING_USERS, false));
    if (missing.length) log(`WARNING: the bare floor does not serialise ${missing.join(", ")} (rest-adapter/fragments.ts grew)`);
    const floorRequest = restListRequest(app.token!);
    const note = `token lookup, then count + page (joins) in parallel; hand-written JSON${missing.length ? `; lacks ${missing.join(", ")}` : ""}`;
    await measure(bare, [{ scenario: "bare-list", next: () => floorRequest }], 1, note);
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
  const loadAtStart = os.loadavg().map((l) => Number(l.toFixed(2)));
  const pg = await probe(postgresServerUrl);
  if ("version" in pg) await postgresqlRound(pg.version);
  else {
    const reason = `PostgreSQL at ${postgresServerUrl} is not reachable (${pg.unreachable}); PostgreSQL and bare-floor rows skipped`;
    skipped.push(reason);
    log(reason);
  }
  await pgliteRound();

  const cpus = os.availableParallelism();
  const loadAtEnd = os.loadavg().map((l) => Number(l.toFixed(2)));
  const warnings =
    Math.max(loadAtStart[0], loadAtEnd[0]) > cpus
      ? [`the machine was busy (1-min load average ${loadAtStart[0]} at start, ${loadAtEnd[0]} at end, on ${cpus} CPUs): expect noisy figures`]
      : [];
  const report: Report = {
    startedAt,
    machine: {
      cpus,
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
      postgresql: "version" in pg ? pg.version : null,
      layout: "load generator = this process; each server in its own child process",
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadAtEnd,
    },
    settings,
    skipped,
    warnings,
    rows,
    serviceTimes,
    ratios: computeRatios(rows, serviceTimes),
  };
  console.log(formatTable(report));
  writeJson(report, RESULTS_FILE);
  log(`figures written to ${RESULTS_FILE}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
