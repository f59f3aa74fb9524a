import { type ChildProcess, fork } from "node:child_process";
import { performance } from "node:perf_hooks";
import { stateFromLabel } from "../src/offering-users/states.ts";
import { fetchJson, percentile } from "./load.ts";
import { LOAD_CPU, openFileLimit, SERVER_CPU } from "./machine.ts";
import { type ServerProcess, startServer } from "./server-process.ts";
import type { Settings } from "./settings.ts";
import { cyclingOfferingUsers, nextStateOf, type Tracked, transitionRequest } from "./transitions.ts";

/**
 * Subscription fan-out: N graphql-ws subscribers of offeringUserChanged on one fresh gateway process, held by
 * client processes (bench/subscriber-worker.ts); for each REST transition, the time from its response to the last
 * subscriber receiving it, and the server's memory per idle subscriber.
 */
export interface FanoutRow {
  subscribers: number;
  connected: number;
  connectSeconds: number;
  /** Server CPU per subscriber while connecting (upgrade, authentication, subscribe). */
  serverCpuMsPerConnect: number;
  transitions: number;
  /** Per transition: response → last subscriber; p50 and p99 over the transitions. */
  lastP50Ms: number;
  lastP99Ms: number;
  /** Per transition: response → median subscriber; p50 over the transitions. */
  medianP50Ms: number;
  /** Deliveries that had not arrived when the timeout struck, over all measured transitions. */
  missed: number;
  rssKbPerSubscriber: number;
  heapKbPerSubscriber: number;
  serverCpuMsPerDelivery: number;
  /** Why the run stopped short or was skipped. */
  problem?: string;
}

const SUBSCRIPTION = "subscription { offeringUserChanged { offeringUserUuid state } }";
const WORKER_ENTRY = new URL("./subscriber-worker.ts", import.meta.url).pathname;
const HANDSHAKES_IN_FLIGHT_PER_WORKER = 100;
const PRIMING_ATTEMPTS = 10;
const WARM_SUBSCRIBERS = 100;
/** Descriptors besides the sockets: the server's own files, database pool, pipes. */
const SPARE_FILE_DESCRIPTORS = 1000;
const now = () => performance.timeOrigin + performance.now();
const KB = 1024;

type Reply = { connected?: number; failed?: number; firstError?: string; expecting?: number; delivered?: { id: number; times: number[]; complete: boolean } };

function nextReply(worker: ChildProcess, accept: (reply: Reply) => boolean, timeoutMs = Number.POSITIVE_INFINITY): Promise<Reply | undefined> {
  return new Promise((resolve) => {
    const timer = Number.isFinite(timeoutMs) ? setTimeout(() => done(undefined), timeoutMs) : undefined;
    const listener = (reply: Reply) => accept(reply) && done(reply);
    const done = (reply: Reply | undefined) => {
      clearTimeout(timer);
      worker.off("message", listener);
      resolve(reply);
    };
    worker.on("message", listener);
  });
}

function forkWorkers(count: number, taskset: string | undefined): ChildProcess[] {
  const execArgv = ["--import", "tsx"];
  const pinned = taskset ? { execPath: taskset, execArgv: ["-c", String(LOAD_CPU), process.execPath, ...execArgv] } : { execArgv };
  return Array.from({ length: count }, () => fork(WORKER_ENTRY, [], { ...pinned, stdio: ["ignore", "inherit", "inherit", "ipc"] }));
}

/** One transition, timed from its REST response to each subscriber's receipt; missing deliveries after `timeoutMs`. */
async function timedTransition(app: ServerProcess, token: string, workers: ChildProcess[], user: Tracked, id: number, timeoutMs: number) {
  const key = `${user.uuid}:${stateFromLabel(nextStateOf(user))}`;
  const expecting = workers.map((w) => nextReply(w, (r) => r.expecting === id));
  for (const w of workers) w.send({ expect: { id, key } });
  await Promise.all(expecting);
  const deliveries = workers.map((w) => nextReply(w, (r) => r.delivered?.id === id, timeoutMs));
  const spec = transitionRequest(token, user);
  const response = await fetchJson(app.baseUrl + spec.path, { method: spec.method, headers: spec.headers, body: spec.body!.toString() });
  const respondedAt = now();
  spec.settled?.(response.status);
  if (response.status !== 200) throw new Error(`transition ${spec.path} answered ${response.status}`);
  const replies = await Promise.all(
    deliveries.map(async (delivery, i) => {
      const reply = await delivery;
      if (reply) return reply.delivered!;
      const late = nextReply(workers[i], (r) => r.delivered?.id === id);
      workers[i].send({ report: { id } });
      return (await late)!.delivered!;
    }),
  );
  const latencies = Float64Array.from(replies.flatMap((r) => r.times).map((t) => t - respondedAt)).sort();
  return { latencies, complete: replies.every((r) => r.complete) };
}

/** Adds `subscribers` more subscribers, spread over the workers. */
async function subscribeMore(workers: ChildProcess[], app: ServerProcess, token: string, subscribers: number) {
  const url = `${app.baseUrl.replace(/^http/, "ws")}/graphql`;
  const replies = await Promise.all(
    workers.map((worker, i) => {
      const count = Math.floor(subscribers / workers.length) + (i < subscribers % workers.length ? 1 : 0);
      const reply = nextReply(worker, (r) => r.connected !== undefined);
      worker.send({ connect: { url, token, query: SUBSCRIPTION, count, concurrency: HANDSHAKES_IN_FLIGHT_PER_WORKER } });
      return reply;
    }),
  );
  return { connected: replies.reduce((sum, r) => sum + r!.connected!, 0), firstError: replies.find((r) => r!.firstError)?.firstError };
}

async function fanoutRun(subscribers: number, databaseUrl: string, token: string, settings: Settings, taskset: string | undefined, log: (m: string) => void): Promise<FanoutRow> {
  const app = await startServer({ kind: "app", databaseUrl, cpuProfileDir: settings.cpuProfileDir, pinTo: taskset ? { taskset, cpu: SERVER_CPU } : undefined });
  const workers = forkWorkers(Math.min(settings.fanoutWorkers, subscribers), taskset);
  try {
    const users = await cyclingOfferingUsers(app.baseUrl, token);
    let turn = 0;
    const transition = (timeoutMs: number) => timedTransition(app, token, workers, users[turn % users.length], turn++, timeoutMs);
    const primeAll = async () => {
      for (let attempt = 0; attempt < PRIMING_ATTEMPTS; attempt++) if ((await transition(settings.fanoutTimeoutSeconds * 1000)).complete) return true;
      return false;
    };
    // A first few subscribers and a delivery to them, so the baseline includes what any first subscriber costs once.
    const warm = Math.min(WARM_SUBSCRIBERS, Math.floor(subscribers / 10));
    if (warm > 0) {
      await subscribeMore(workers, app, token, warm);
      await primeAll();
    }
    const before = await app.memory();
    const cpuBeforeConnecting = await app.cpuMs();
    const started = performance.now();
    const added = await subscribeMore(workers, app, token, subscribers - warm);
    const connectSeconds = (performance.now() - started) / 1000;
    const serverCpuMsPerConnect = ((await app.cpuMs()) - cpuBeforeConnecting) / added.connected;
    const connected = warm + added.connected;
    const firstError = added.firstError;
    log(`  ${subscribers} subscribers: ${connected} connected (${added.connected} in ${connectSeconds.toFixed(1)} s)${firstError ? `, first failure: ${firstError}` : ""}`);
    const primed = await primeAll();
    const after = await app.memory();
    const cpuBefore = await app.cpuMs();
    const lasts: number[] = [];
    const medians: number[] = [];
    let missed = 0;
    for (let i = 0; i < settings.fanoutTransitions; i++) {
      const { latencies } = await transition(settings.fanoutTimeoutSeconds * 1000);
      lasts.push(latencies.at(-1) ?? Number.NaN);
      medians.push(percentile(latencies, 50));
      missed += connected - latencies.length;
      log(`    transition ${i + 1}: last subscriber ${lasts.at(-1)!.toFixed(1)} ms, median ${medians.at(-1)!.toFixed(1)} ms after the response, ${latencies.length}/${connected} delivered`);
    }
    const cpuMs = (await app.cpuMs()) - cpuBefore;
    const sorted = Float64Array.from(lasts).sort();
    const problems = [
      connected < subscribers ? `${subscribers - connected} subscribers failed to connect (${firstError})` : "",
      primed ? "" : `no transition reached every subscriber within ${settings.fanoutTimeoutSeconds} s while priming`,
    ].filter(Boolean);
    return {
      subscribers, connected, connectSeconds, serverCpuMsPerConnect, transitions: lasts.length,
      lastP50Ms: percentile(sorted, 50), lastP99Ms: percentile(sorted, 99), medianP50Ms: percentile(Float64Array.from(medians).sort(), 50),
      missed,
      rssKbPerSubscriber: (after.rss - before.rss) / KB / added.connected,
      heapKbPerSubscriber: (after.heapUsed - before.heapUsed) / KB / added.connected,
      serverCpuMsPerDelivery: cpuMs / (settings.fanoutTransitions * connected),
      problem: problems.join("; ") || undefined,
    };
  } finally {
    for (const worker of workers) worker.send("close");
    await app.stop();
  }
}

const skipped = (subscribers: number, problem: string): FanoutRow => ({
  subscribers, connected: 0, connectSeconds: 0, serverCpuMsPerConnect: Number.NaN, transitions: 0, lastP50Ms: Number.NaN, lastP99Ms: Number.NaN, medianP50Ms: Number.NaN,
  missed: 0, rssKbPerSubscriber: Number.NaN, heapKbPerSubscriber: Number.NaN, serverCpuMsPerDelivery: Number.NaN, problem,
});

export async function runFanout(databaseUrl: string, token: string, settings: Settings, taskset: string | undefined, log: (m: string) => void): Promise<FanoutRow[]> {
  const rows: FanoutRow[] = [];
  const fileLimit = openFileLimit() ?? Number.POSITIVE_INFINITY;
  log(`fan-out: ${settings.fanoutSubscribers.join(", ")} subscribers, ${settings.fanoutTransitions} transitions each, ${settings.fanoutWorkers} client process(es); ulimit -n ${fileLimit}`);
  for (const subscribers of settings.fanoutSubscribers) {
    if (subscribers + SPARE_FILE_DESCRIPTORS > fileLimit) {
      rows.push(skipped(subscribers, `ulimit -n is ${fileLimit}; run \`ulimit -n ${subscribers + SPARE_FILE_DESCRIPTORS}\` (or more) first`));
      log(`  ${subscribers} subscribers: skipped, ${rows.at(-1)!.problem}`);
      continue;
    }
    rows.push(await fanoutRun(subscribers, databaseUrl, token, settings, taskset, log));
  }
  return rows;
}
