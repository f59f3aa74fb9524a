import { performance } from "node:perf_hooks";
import pg from "pg";
import { unfoldedRowsSql } from "../src/platform/database/tallies.ts";
import { TALLY_TABLES } from "../src/modules.ts";
import { type ScaleData, type ScaleSize, seedScaleData } from "../test/support/scale-data.ts";
import { percentile } from "./load.ts";
import { scaleRequests } from "./scale-requests.ts";
import type { ServerProcess } from "./server-process.ts";
import type { Settings } from "./settings.ts";

/**
 * The scale scenario: the same reads, by a staff user and by a provider's manager, on one provider at a small size
 * (1% of BENCH_SCALE_OFFERING_USERS / BENCH_SCALE_EVENTS) and after growing the same database to the full size. Each
 * read is timed on one connection, one request after another, with the server's CPU time per request; the aim is
 * that 100 times the data costs at most twice the time.
 */
export type Viewer = "staff" | "provider manager";

export interface ScaleSample {
  p50Ms: number;
  serverCpuMsPerRequest: number;
  requests: number;
  /** X-Result-Count of the answer: how many rows the filter matched. */
  resultCount: number;
}

export interface ScaleRow {
  request: string;
  viewer: Viewer;
  small: ScaleSample;
  big: ScaleSample;
  /** big p50 / small p50. */
  ratio: number;
  pass: boolean;
  deep: boolean;
}

export interface ScaleRound {
  offeringUsers: number;
  events: number;
  eventScopes: number;
  seedSeconds: number;
  deepPage: number;
}

export interface ScaleResult {
  small: ScaleRound;
  big: ScaleRound;
  rows: ScaleRow[];
}

export const SCALE_TARGET_RATIO = 2;
const OFFERINGS = 20;
const SMALL_SHARE = 0.01;
/** The deep page is the middle one of the offering users (page_size 10): page 5,000 of 100,000, page 50 of 1,000. */
const deepPageOf = (offeringUsers: number) => Math.max(2, Math.round(offeringUsers / 20));
const WARMUP_REQUESTS = 2;
/** Requests of the bare list per viewer before the first measurement: a fresh server is still compiling its hot paths. */
const SERVER_WARMUP_REQUESTS = 50;
const MAX_SAMPLES = 30;
const MIN_SAMPLES = 5;
const BUDGET_MS = 4_000;

type Measured = Array<{ request: string; deep: boolean; viewer: Viewer; sample: ScaleSample }>;

async function timedGet(baseUrl: string, path: string, token: string) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Token ${token}`, accept: "application/json" } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`scale: GET ${path} answered ${response.status}: ${body.slice(0, 300)}`);
  return { ms, resultCount: Number(response.headers.get("x-result-count") ?? Number.NaN) };
}

/** A few warm-up requests, then up to MAX_SAMPLES (at least MIN_SAMPLES, else within BUDGET_MS), one at a time. */
async function measure(server: ServerProcess, path: string, token: string): Promise<ScaleSample> {
  let resultCount = Number.NaN;
  for (let i = 0; i < WARMUP_REQUESTS; i++) resultCount = (await timedGet(server.baseUrl, path, token)).resultCount;
  const latencies: number[] = [];
  const cpuBefore = await server.cpuMs();
  const started = performance.now();
  while (latencies.length < MAX_SAMPLES && (latencies.length < MIN_SAMPLES || performance.now() - started < BUDGET_MS)) {
    latencies.push((await timedGet(server.baseUrl, path, token)).ms);
  }
  const serverCpuMsPerRequest = ((await server.cpuMs()) - cpuBefore) / latencies.length;
  return { p50Ms: percentile(Float64Array.from(latencies).sort(), 50), serverCpuMsPerRequest, requests: latencies.length, resultCount };
}

async function measureAll(server: ServerProcess, data: ScaleData, deepPage: number, log: (message: string) => void): Promise<Measured> {
  const measured: Measured = [];
  const viewers: Array<[Viewer, string]> = [["staff", data.staffToken], ["provider manager", data.providerToken]];
  const requests = scaleRequests(data, deepPage);
  for (const [, token] of viewers) for (let i = 0; i < SERVER_WARMUP_REQUESTS; i++) await timedGet(server.baseUrl, requests[0].path, token);
  for (const request of requests) {
    for (const [viewer, token] of viewers) {
      const sample = await measure(server, request.path, token);
      measured.push({ request: request.label, deep: request.deep, viewer, sample });
      log(`  ${request.label.padEnd(58)} ${viewer.padEnd(16)} p50 ${sample.p50Ms.toFixed(1).padStart(8)} ms  cpu ${sample.serverCpuMsPerRequest.toFixed(1).padStart(7)} ms/req  count ${sample.resultCount}`);
    }
  }
  return measured;
}

async function seed(databaseUrl: string, size: ScaleSize, log: (message: string) => void) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    const data = await seedScaleData(client, size);
    const seedSeconds = (performance.now() - started) / 1000;
    log(`scale: ${data.counts.offeringUsers} offering users, ${data.counts.events} events (${data.counts.eventScopes} scopes) seeded in ${seedSeconds.toFixed(1)} s`);
    return { data, seedSeconds };
  } finally {
    await client.end();
  }
}

/**
 * Seeding writes one tally row per offering user and per event (the triggers' +1); the gateway folds them within its
 * fold interval. Lists are measured at that steady state: wait until the tallies hold at most one row per key.
 */
async function talliesFolded(databaseUrl: string, log: (message: string) => void) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    const unfolded = async () => Number((await client.query<{ n: string }>(`SELECT ${unfoldedRowsSql(TALLY_TABLES)} AS n`)).rows[0].n);
    while ((await unfolded()) > 0) {
      if (performance.now() - started > 60_000) throw new Error("the gateway did not fold the offering-user tallies within 60 s");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    log(`scale: tallies folded by the gateway ${((performance.now() - started) / 1000).toFixed(1)} s after its start`);
    // What autovacuum does within its next round (the tally tables' storage parameters ask for it after a thousand
    // changes); measured before it, a count would read through the dead rows of the seed's fold.
    await client.query(`VACUUM (ANALYZE) ${TALLY_TABLES.map(({ table }) => table).join(", ")}`);
  } finally {
    await client.end();
  }
}

/**
 * `start` gives a gateway on `databaseUrl` (its first start migrates the empty database); each size is measured on a
 * server started after seeding, so both rounds begin alike.
 */
export async function runScale(
  databaseUrl: string,
  start: () => Promise<ServerProcess>,
  stop: (server: ServerProcess) => Promise<void>,
  settings: Settings,
  log: (message: string) => void,
): Promise<ScaleResult> {
  const bigSize: ScaleSize = { offeringUsers: settings.scaleOfferingUsers, offerings: OFFERINGS, events: settings.scaleEvents };
  const smallSize: ScaleSize = {
    offeringUsers: Math.max(1, Math.round(bigSize.offeringUsers * SMALL_SHARE)),
    offerings: OFFERINGS,
    events: Math.max(1, Math.round(bigSize.events * SMALL_SHARE)),
  };
  await stop(await start());
  const rounds: Array<{ round: ScaleRound; measured: Measured }> = [];
  for (const size of [smallSize, bigSize]) {
    const { data, seedSeconds } = await seed(databaseUrl, size, log);
    const deepPage = deepPageOf(size.offeringUsers);
    const server = await start();
    try {
      await talliesFolded(databaseUrl, log);
      log(`scale: measuring at ${size.offeringUsers} offering users / ${size.events} events (deep page ${deepPage})`);
      const measured = await measureAll(server, data, deepPage, log);
      rounds.push({ round: { ...data.counts, seedSeconds, deepPage }, measured });
    } finally {
      await stop(server);
    }
  }
  const [small, big] = rounds;
  const rows = small.measured.map(({ request, deep, viewer, sample }, i): ScaleRow => {
    const grown = big.measured[i].sample;
    const ratio = grown.p50Ms / sample.p50Ms;
    return { request, viewer, small: sample, big: grown, ratio, pass: ratio <= SCALE_TARGET_RATIO, deep };
  });
  return { small: small.round, big: big.round, rows };
}
