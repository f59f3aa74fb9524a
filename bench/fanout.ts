import { type ChildProcess, fork } from "node:child_process";
import { performance } from "node:perf_hooks";
import { stateFromLabel } from "../src/offering-users/states.ts";
import { fetchJson, percentile } from "./load.ts";
import { LOAD_CPU, openFileLimit, SERVER_CPU } from "./machine.ts";
import { type ServerProcess, startServer } from "./server-process.ts";
import type { FanoutCase, FanoutDocuments, Settings } from "./settings.ts";
import { cyclingOfferingUsers, nextStateOf, type Tracked } from "./offering-user-cycle.ts";
import { transitionRequest } from "./transitions.ts";

/**
 * Subscription fan-out: N graphql-ws subscribers of offeringUserChanged on one fresh gateway process, held by
 * client processes (bench/subscriber-worker.ts); for each REST transition, the time from sending its request to the last
 * subscriber receiving it, and the server's memory per idle subscriber.
 */
export interface FanoutRow extends FanoutCase {
  connected: number;
  connectSeconds: number;
  /** Server CPU per subscriber while connecting (upgrade, authentication, subscribe). */
  serverCpuMsPerConnect: number;
  transitions: number;
  /**
   * Per transition: request sent → last subscriber; p50 and p99 over the transitions. From the request, not the
   * response: the server may deliver to many subscribers before the response reaches the client.
   */
  lastP50Ms: number;
  lastP99Ms: number;
  /** Per transition: request sent → median subscriber; p50 over the transitions. */
  medianP50Ms: number;
  /** Deliveries that had not arrived when the timeout struck, over all measured transitions. */
  missed: number;
  rssKbPerSubscriber: number;
  heapKbPerSubscriber: number;
  serverCpuMsPerDelivery: number;
  /** Why the run stopped short or was skipped. */
  problem?: string;
}

/** `{n}` becomes the subscriber's number in the worker: a document of its own for each subscriber. */
const SUBSCRIPTIONS: Record<FanoutDocuments, string> = {
  shared: "subscription { offeringUserChanged { offeringUserUuid state } }",
  distinct: "subscription Subscriber{n} { offeringUserChanged { offeringUserUuid state } }",
};
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
  return Array.from({ length: count }, (_, i) => fork(WORKER_ENTRY, [String(i)], { ...pinned, stdio: ["ignore", "inherit", "inherit", "ipc"] }));
}

/** One transition, timed from sending its REST request to each subscriber's receipt; missing deliveries after `timeoutMs`. */
async function timedTransition(app: ServerProcess, token: string, workers: ChildProcess[], user: Tracked, id: number, timeoutMs: number) {
  const key = `${user.uuid}:${stateFromLabel(nextStateOf(user))}`;
  const expecting = workers.map((w) => nextReply(w, (r) => r.expecting === id));
  for (const w of workers) w.send({ expect: { id, key } });
  await Promise.all(expecting);
  const deliveries = workers.map((w) => nextReply(w, (r) => r.delivered?.id === id, timeoutMs));
  const spec = transitionRequest(token, user);
  const sentAt = now();
  const response = await fetchJson(app.baseUrl + spec.path, { method: spec.method, headers: spec.headers, body: spec.body!.toString() });
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
  const latencies = Float64Array.from(replies.flatMap((r) => r.times).map((t) => t - sentAt)).sort();
  return { latencies, complete: replies.every((r) => r.complete) };
}

/** Adds `subscribers` more subscribers, spread over the workers. */
async function subscribeMore(workers: ChildProcess[], app: ServerProcess, tokens: string[], subscribers: number, query: string) {
  const url = `${app.baseUrl.replace(/^http/, "ws")}/graphql`;
  const replies = await Promise.all(
    workers.map((worker, i) => {
      const count = Math.floor(subscribers / workers.length) + (i < subscribers % workers.length ? 1 : 0);
      const reply = nextReply(worker, (r) => r.connected !== undefined);
      worker.send({ connect: { url, tokens, query, count, concurrency: HANDSHAKES_IN_FLIGHT_PER_WORKER } });
      return reply;
    }),
  );
  return { connected: replies.reduce((sum, r) => sum + r!.connected!, 0), firstError: replies.find((r) => r!.firstError)?.firstError };
}

async function fanoutRun(fanoutCase: FanoutCase, databaseUrl: string, token: string, settings: Settings, taskset: string | undefined, log: (m: string) => void): Promise<FanoutRow> {
  const { subscribers, documents, viewers, distinctRoles } = fanoutCase;
  const pinTo = taskset ? { taskset, cpu: SERVER_CPU } : undefined;
  // One viewer may hold all the subscribers: the per-user cap on sockets (100 by default) is lifted for the run.
  const env = { GRAPHQL_WS_MAX_CONNECTIONS_PER_USER: String(subscribers) };
  const app = await startServer({ kind: "app", databaseUrl, cpuProfileDir: settings.cpuProfileDir, pinTo, viewers: viewers > 1 ? viewers : 0, distinctRoles, env });
  const workers = forkWorkers(Math.min(settings.fanoutWorkers, subscribers), taskset);
  const subscriberTokens = app.viewerTokens ?? [token];
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
      await subscribeMore(workers, app, subscriberTokens, warm, SUBSCRIPTIONS[documents]);
      await primeAll();
    }
    const before = await app.memory();
    const cpuBeforeConnecting = await app.cpuMs();
    const started = performance.now();
    const added = await subscribeMore(workers, app, subscriberTokens, subscribers - warm, SUBSCRIPTIONS[documents]);
    const connectSeconds = (performance.now() - started) / 1000;
    const serverCpuMsPerConnect = ((await app.cpuMs()) - cpuBeforeConnecting) / added.connected;
    const connected = warm + added.connected;
    const firstError = added.firstError;
    log(`  ${caseLabel(fanoutCase)}: ${connected} connected (${added.connected} in ${connectSeconds.toFixed(1)} s)${firstError ? `, first failure: ${firstError}` : ""}`);
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
      log(`    transition ${i + 1}: last subscriber ${lasts.at(-1)!.toFixed(1)} ms, median ${medians.at(-1)!.toFixed(1)} ms after the request, ${latencies.length}/${connected} delivered`);
    }
    const cpuMs = (await app.cpuMs()) - cpuBefore;
    const sorted = Float64Array.from(lasts).sort();
    const problems = [
      connected < subscribers ? `${subscribers - connected} subscribers failed to connect (${firstError})` : "",
      primed ? "" : `no transition reached every subscriber within ${settings.fanoutTimeoutSeconds} s while priming`,
    ].filter(Boolean);
    return {
      ...fanoutCase, connected, connectSeconds, serverCpuMsPerConnect, transitions: lasts.length,
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

const viewersLabel = ({ viewers, distinctRoles }: FanoutCase) =>
  viewers === 1 ? "one viewer" : `${viewers} viewers ${distinctRoles ? "with roles of their own" : "with one set of roles"}`;

export const caseLabel = (fanoutCase: FanoutCase) =>
  `${fanoutCase.subscribers} subscribers, ${fanoutCase.documents === "shared" ? "one document" : "a document each"}, ${viewersLabel(fanoutCase)}`;

const skipped = (fanoutCase: FanoutCase, problem: string): FanoutRow => ({
  ...fanoutCase, connected: 0, connectSeconds: 0, serverCpuMsPerConnect: Number.NaN, transitions: 0, lastP50Ms: Number.NaN, lastP99Ms: Number.NaN, medianP50Ms: Number.NaN,
  missed: 0, rssKbPerSubscriber: Number.NaN, heapKbPerSubscriber: Number.NaN, serverCpuMsPerDelivery: Number.NaN, problem,
});

export async function runFanout(databaseUrl: string, token: string, settings: Settings, taskset: string | undefined, log: (m: string) => void): Promise<FanoutRow[]> {
  const rows: FanoutRow[] = [];
  const fileLimit = openFileLimit() ?? Number.POSITIVE_INFINITY;
  log(`fan-out: ${settings.fanoutCases.map(caseLabel).join("; ")}; ${settings.fanoutTransitions} transitions each, ${settings.fanoutWorkers} client process(es); ulimit -n ${fileLimit}`);
  for (const fanoutCase of settings.fanoutCases) {
    const { subscribers } = fanoutCase;
    if (subscribers + SPARE_FILE_DESCRIPTORS > fileLimit) {
      rows.push(skipped(fanoutCase, `ulimit -n is ${fileLimit}; run \`ulimit -n ${subscribers + SPARE_FILE_DESCRIPTORS}\` (or more) first`));
      log(`  ${caseLabel(fanoutCase)}: skipped, ${rows.at(-1)!.problem}`);
      continue;
    }
    rows.push(await fanoutRun(fanoutCase, databaseUrl, token, settings, taskset, log));
  }
  return rows;
}
