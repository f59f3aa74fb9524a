/**
 * The memory scenario: resident set size (VmRSS from /proc) of `npm start`'s command (package.json's start script on
 * the built dist/), on PostgreSQL and on the embedded database: 3 s after its banner, idle 30 s after it, and 30 s
 * after a burst of REST and GraphQL reads. A first start migrates and seeds; the figures are medians of the starts
 * that follow, run side by side (RSS is per process).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildIfStale, startArguments } from "../scripts/build.ts";
import { startGateway as startGatewayProcess } from "../test/support/server-process.ts";

export const IDLE_RSS_TARGET_MB = 160;
export type MemoryDatabase = "postgresql" | "embedded";

export interface MemoryRow {
  database: MemoryDatabase;
  /** Node's arguments, as run. */
  command: string;
  /** Medians (MB): a few seconds after the banner, idle (V8 settled), and settled again after the reads. */
  startRssMb: number;
  idleRssMb: number;
  afterRequestsRssMb: number;
  /** Idle RSS of every measured start. */
  idleRunsMb: number[];
  requests: number;
  /** Server CPU (user + system) per read of the burst, median of the starts. */
  cpuMsPerRequest: number;
}

const START_SETTLE_MS = 3_000;
/** V8's memory reducer shrinks the heap some 10-20 s after activity stops. */
const IDLE_SETTLE_MS = 30_000;
const REQUESTS = 200;
const CONCURRENCY = 4;
/** The staff token line follows the banner the start waits for. */
const TOKEN_TIMEOUT_MS = 10_000;

export function rssMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (!kb) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb) / 1024;
}

/** CPU time (user + system) the process has used, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Gateway {
  pid: number;
  baseUrl: string;
  token: string;
  stop(): Promise<unknown>;
}

/** `npm start`'s defaults (demo data, its printed staff token), not the tests'. */
async function startGateway(args: string[], env: Record<string, string>): Promise<Gateway> {
  const gateway = await startGatewayProcess({ NODE_ENV: "", SEED_DEMO: "true", ...env }, { testDefaults: false, nodeArgs: args });
  const started = Date.now();
  let token: string | undefined;
  while (!(token = /Staff token:\s+([0-9a-f]{40})/.exec(gateway.output())?.[1])) {
    if (Date.now() - started > TOKEN_TIMEOUT_MS) {
      await gateway.stop();
      throw new Error(`the gateway (${args.join(" ")}) printed no staff token:\n${gateway.output()}`);
    }
    await sleep(50);
  }
  return { pid: gateway.pid, baseUrl: gateway.baseUrl, token, stop: () => gateway.stop() };
}

/** `npm start`'s command on a fresh embedded data directory of its own, removed when it stops. */
export async function startEmbeddedGateway(args: string[]): Promise<Gateway> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-embedded-"));
  const gateway = await startGateway(args, { DATABASE_URL: "", GATEWAY_DATA_DIR: dataDir });
  return {
    ...gateway,
    stop: async () => {
      await gateway.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const READS: Array<(base: string) => [string, RequestInit]> = [
  (base) => [`${base}/api/marketplace-offering-users/?page_size=10`, {}],
  (base) => [`${base}/api/marketplace-provider-offerings/`, {}],
  (base) => [`${base}/api/events/?page_size=10`, {}],
  (base) => [`${base}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ me { username isStaff } }" }) }],
];

/** `REQUESTS` reads, `CONCURRENCY` at a time, cycling through `READS`; throws on any answer but 200. */
async function readBurst(gateway: Gateway) {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < REQUESTS; i = next++) {
      const [url, init] = READS[i % READS.length](gateway.baseUrl);
      const response = await fetch(url, { ...init, headers: { ...init.headers, Authorization: `Token ${gateway.token}` } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

interface Sample {
  startRssMb: number;
  idleRssMb: number;
  afterRequestsRssMb: number;
  cpuMsPerRequest: number;
}

/** One start: RSS shortly after the banner, once V8 has settled (its memory reducer gives back the start-up's young generation), and settled again after the reads. */
async function sample(args: string[], env: Record<string, string>): Promise<Sample> {
  const gateway = await startGateway(args, env);
  try {
    await sleep(START_SETTLE_MS);
    const startRssMb = rssMb(gateway.pid);
    await sleep(IDLE_SETTLE_MS - START_SETTLE_MS);
    const idleRssMb = rssMb(gateway.pid);
    const cpuBefore = cpuMs(gateway.pid);
    await readBurst(gateway);
    const cpuMsPerRequest = (cpuMs(gateway.pid) - cpuBefore) / REQUESTS;
    await sleep(IDLE_SETTLE_MS);
    return { startRssMb, idleRssMb, afterRequestsRssMb: rssMb(gateway.pid), cpuMsPerRequest };
  } finally {
    await gateway.stop();
  }
}

/** A first start migrates and seeds; then `runs` starts at once (each on its own copy of an embedded data directory). */
async function measure(database: MemoryDatabase, args: string[], envOf: (run: number) => Record<string, string>, prepare: () => void, runs: number, log: (message: string) => void): Promise<MemoryRow> {
  await (await startGateway(args, envOf(0))).stop();
  prepare();
  const samples = await Promise.all(Array.from({ length: runs }, (_, run) => sample(args, envOf(run))));
  const mb = (pick: (s: Sample) => number) => samples.map((s) => pick(s).toFixed(0)).join(", ");
  log(`memory (${database}): ${mb((s) => s.startRssMb)} MB after start, ${mb((s) => s.idleRssMb)} idle, ${mb((s) => s.afterRequestsRssMb)} after ${REQUESTS} reads`);
  const middle = (pick: (s: Sample) => number) => median(samples.map(pick));
  return {
    database,
    command: args.join(" "),
    startRssMb: middle((s) => s.startRssMb),
    idleRssMb: middle((s) => s.idleRssMb),
    afterRequestsRssMb: middle((s) => s.afterRequestsRssMb),
    idleRunsMb: samples.map((s) => s.idleRssMb),
    requests: REQUESTS,
    cpuMsPerRequest: middle((s) => s.cpuMsPerRequest),
  };
}

export interface MemoryOptions {
  /** PostgreSQL database (scratch) to run on; undefined: the embedded database only. */
  databaseUrl?: string;
  /** Node's arguments; default: package.json's start script, after building dist/ if it is stale. */
  args?: string[];
  runs: number;
}

export async function runIdleMemory({ databaseUrl, args, runs }: MemoryOptions, log: (message: string) => void): Promise<MemoryRow[]> {
  if (!args) await buildIfStale();
  const command = args ?? startArguments();
  const rows: MemoryRow[] = [];
  if (databaseUrl) rows.push(await measure("postgresql", command, () => ({ DATABASE_URL: databaseUrl }), () => {}, runs, log));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-memory-"));
  const copy = (run: number) => path.join(dataDir, `data-${run}`);
  const copies = () => {
    for (let run = 1; run < runs; run++) fs.cpSync(copy(0), copy(run), { recursive: true });
  };
  try {
    rows.push(await measure("embedded", command, (run) => ({ DATABASE_URL: "", GATEWAY_DATA_DIR: copy(run) }), copies, runs, log));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
