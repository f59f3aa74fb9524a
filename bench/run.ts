/**
 * `npm run bench`, on PostgreSQL (scratch database mg_bench, dropped afterwards):
 *   ladder       one offering user and a page of ten at each layer: bare node:http + pg → Hono + Prisma →
 *                POST /graphql → REST adapter; req/s, latency, server CPU per request, and each layer's cost
 *   peers        the frontend's page of 10 offering users from the gateway (GraphQL, REST) and from what a user would
 *                deploy instead: PostGraphile 5, Django REST Framework under gunicorn, the bare handler (bench/peers.ts)
 *   reads        the same reads through the gateway's SQL compiler, Prisma's client and the raw driver, in this process:
 *                CPU per read, whether the library comes within 1.3× of the driver (bench/reads.ts)
 *   transitions  REST offering-user transitions at 1, 10 and 100 clients on their own records, and once contended,
 *                each also against the bare node:http + pg transition handler; database work per transition
 *   fanout       1,000 and 10,000 graphql-ws subscribers, one shared document or one each: request → last subscriber, memory per subscriber
 *   reader       one graphql-ws subscriber that reads everything while REST writers outpace its deliveries: delivered/s,
 *                catch-ups from the event log, and whether every change arrived once with the reader still connected
 *   agent-messages  a site agent's STOMP consumer on RabbitMQ: REST write → message received (p50/p99), and messages/s
 *   scale        on a scratch database of its own (mg_bench_scale): the offering-user list with each filter and ordering,
 *                the event list and deep pages, by staff and by a provider's manager, at 1,000 offering users / 10,000
 *                events and again grown to 100,000 / 1,000,000: one-connection p50 and CPU per request at both sizes
 *   memory       npm start's command (built dist/) on a scratch database of its own (mg_bench_memory) and on the embedded
 *                database: RSS after start, idle, and after 200 reads (bench/idle-memory.ts)
 *   soak         npm start's command on the embedded database under paced mixed use for BENCH_SOAK_MINUTES: RSS of its
 *                last minute against its second (bench/soak.ts)
 * This process is the load generator; every server runs in a child process (bench/server.ts), pinned to core 0
 * with taskset when it can be, the load and the subscriber clients to core 1. Knobs: bench/settings.ts.
 */
import { formatText, type Report, writeResults } from "./report.ts";
import { type FanoutRow, runFanout } from "./fanout.ts";
import { type LadderRow, runLadder } from "./ladder.ts";
import { findTaskset, LOAD_CPU, loadAverage, machineDescription, pinThisProcess, SERVER_CPU } from "./machine.ts";
import { compareLayers, firstPageUuids, type Layer } from "./scenarios.ts";
import { createScratchDatabase, probe } from "./scratch-database.ts";
import { type ServerOptions, type ServerProcess, startServer } from "./server-process.ts";
import { knobsTable, settings } from "./settings.ts";
import { runTransitions, type TransitionRow } from "./transitions.ts";
import { type AgentMessagesRow, benchBroker, brokerEnv, runAgentMessages } from "./agent-messages.ts";
import { runScale, type ScaleResult } from "./scale.ts";
import { type MemoryRow, runIdleMemory } from "./idle-memory.ts";
import { runSoak, type SoakRow } from "./soak.ts";
import { type ReadsRow, runReads } from "./reads.ts";
import { type ReaderRow, runReader } from "./reader.ts";
import { type PeerRow, runPeers } from "./peers.ts";
import { embeddedShortfall } from "./peers/report.ts";

const SCRATCH_DATABASE = settings.scratchDatabase;
const RESULTS_DIR = new URL("./results/", import.meta.url).pathname;
const log = (message: string) => console.error(`[bench] ${message}`);

const skipped: string[] = [];
const warnings: string[] = [];
let ladder: LadderRow[] = [];
let peers: PeerRow[] = [];
let transitions: TransitionRow[] = [];
let fanout: FanoutRow[] = [];
let reader: ReaderRow[] = [];
let agentMessages: AgentMessagesRow[] = [];
let scale: ScaleResult | null = null;
let memory: MemoryRow[] = [];
let soak: SoakRow | undefined;
let reads: ReadsRow[] = [];
const POSTGRESQL_ROUND = ["ladder", "peers", "transitions", "fanout", "reader", "agent-messages"];

async function postgresqlRound(taskset: string | undefined) {
  const scratch = await createScratchDatabase(settings.postgresUrl, SCRATCH_DATABASE);
  const running: ServerProcess[] = [];
  const start = async (options: Omit<ServerOptions, "databaseUrl" | "cpuProfileDir" | "pinTo">) => {
    const server = await startServer({ ...options, databaseUrl: scratch.url, cpuProfileDir: settings.cpuProfileDir, pinTo: taskset ? { taskset, cpu: SERVER_CPU } : undefined });
    running.push(server);
    return server;
  };
  const stop = async (server: ServerProcess) => {
    running.splice(running.indexOf(server), 1);
    await server.stop();
  };
  try {
    const app = await start({ kind: "app", seed: true });
    const token = app.token!;
    if (settings.scenarios.has("ladder")) {
      const [bare, honoPrisma] = [await start({ kind: "bare" }), await start({ kind: "hono-prisma" })];
      const servers: Record<Layer, ServerProcess> = { bare, "hono-prisma": honoPrisma, graphql: app, rest: app };
      const uuids = await firstPageUuids(app.baseUrl, token);
      const baseUrls = Object.fromEntries(Object.entries(servers).map(([layer, s]) => [layer, s.baseUrl])) as Record<Layer, string>;
      for (const difference of await compareLayers(baseUrls, token, uuids)) warnings.push(`the layers do not answer the same JSON: ${difference}`);
      ladder = await runLadder(servers, token, uuids, settings, log);
      await stop(bare);
      await stop(honoPrisma);
    }
    if (settings.scenarios.has("peers")) {
      const pinTo = taskset ? { taskset, cpu: SERVER_CPU } : undefined;
      const startEmbedded = async () => {
        const server = await startServer({ kind: "app", seed: true, cpuProfileDir: settings.cpuProfileDir, pinTo });
        running.push(server);
        return server;
      };
      const outcome = await runPeers({ gateway: app, token, databaseUrl: scratch.url, startBare: () => start({ kind: "bare" }), startEmbedded, stopServer: stop, pinTo, settings, log });
      peers = outcome.rows;
      skipped.push(...outcome.skipped);
      warnings.push(...outcome.warnings, ...embeddedShortfall(outcome.rows));
    }
    if (settings.scenarios.has("transitions")) {
      const bare = await start({ kind: "bare" });
      transitions = await runTransitions({ gateway: app, bare }, token, settings, log, scratch.url);
      await stop(bare);
    }
    await stop(app);
    if (settings.scenarios.has("fanout")) fanout = await runFanout(scratch.url, token, settings, taskset, log);
    if (settings.scenarios.has("reader")) reader = await runReader(scratch.url, token, settings, taskset, log);
    if (settings.scenarios.has("agent-messages")) await agentMessagesRound(scratch.url, token, start, stop);
  } finally {
    for (const server of running) await server.stop();
    await scratch.drop();
    log(`dropped ${SCRATCH_DATABASE}`);
  }
}

/** On a server of its own: a configured broker adds the site agents' fan-out to every write the other scenarios time. */
async function agentMessagesRound(databaseUrl: string, token: string, start: (o: Omit<ServerOptions, "databaseUrl" | "cpuProfileDir" | "pinTo">) => Promise<ServerProcess>, stop: (s: ServerProcess) => Promise<void>) {
  const broker = benchBroker();
  if (!broker) return void skipped.push("agent-messages: no broker (start one with scripts/rabbitmq-node.sh and export its TEST_RABBITMQ_* lines)");
  const app = await start({ kind: "app", env: brokerEnv(broker) });
  try {
    agentMessages = [await runAgentMessages(app, databaseUrl, token, broker, settings, log)];
  } finally {
    await stop(app);
  }
}

/** The scale scenario grows a database of its own to millions of rows; the other scenarios never see it. */
async function scaleRound(taskset: string | undefined) {
  const scratch = await createScratchDatabase(settings.postgresUrl, `${SCRATCH_DATABASE}_scale`);
  const pinTo = taskset ? { taskset, cpu: SERVER_CPU } : undefined;
  try {
    scale = await runScale(scratch.url, () => startServer({ kind: "app", databaseUrl: scratch.url, cpuProfileDir: settings.cpuProfileDir, pinTo }), (s) => s.stop(), settings, log);
  } finally {
    await scratch.drop();
    log(`dropped ${SCRATCH_DATABASE}_scale`);
  }
}

/** The reads scenario on a scratch database of its own (…_reads). */
async function readsRound() {
  const scratch = await createScratchDatabase(settings.postgresUrl, `${SCRATCH_DATABASE}_reads`);
  try {
    reads = await runReads(scratch.url, { connections: settings.serverPoolSize, segmentSeconds: settings.readsSegmentSeconds, rounds: settings.readsRounds }, log);
  } finally {
    await scratch.drop();
  }
}

/** Idle memory of `npm start`'s server, on PostgreSQL when it is reachable and on the embedded database. */
async function memoryRound(postgresReachable: boolean) {
  const scratch = postgresReachable ? await createScratchDatabase(settings.postgresUrl, `${SCRATCH_DATABASE}_memory`) : undefined;
  const args = settings.memoryArgs.length ? settings.memoryArgs : undefined;
  try {
    memory = await runIdleMemory({ databaseUrl: scratch?.url, args, runs: settings.memoryRuns }, log);
  } finally {
    await scratch?.drop();
    if (scratch) log(`dropped ${SCRATCH_DATABASE}_memory`);
  }
}

async function main() {
  const startedAt = new Date().toISOString();
  const loadAtStart = loadAverage();
  const taskset = settings.pin ? findTaskset() : undefined;
  if (taskset) pinThisProcess(taskset, LOAD_CPU);
  else warnings.push("processes are not pinned to cores (no taskset, one CPU, or BENCH_PIN=0): server and load share the CPUs");

  const pg = await probe(settings.postgresUrl);
  if (!("version" in pg)) {
    skipped.push(`PostgreSQL at ${settings.postgresUrl} is not reachable (${pg.unreachable}); every scenario needs it (memory ran on the embedded database only)`);
  } else {
    if (POSTGRESQL_ROUND.some((scenario) => settings.scenarios.has(scenario))) await postgresqlRound(taskset);
    if (settings.scenarios.has("scale")) await scaleRound(taskset);
    if (settings.scenarios.has("reads")) await readsRound();
  }
  if (settings.scenarios.has("memory")) await memoryRound("version" in pg);
  if (settings.scenarios.has("soak")) soak = await runSoak({ minutes: settings.soakMinutes, rate: settings.soakRate }, log);

  const machine = machineDescription();
  const loadAtEnd = loadAverage();
  if (Math.max(loadAtStart[0], loadAtEnd[0]) > machine.cpus) {
    warnings.push(`the machine was busy (1-min load average ${loadAtStart[0]} at start, ${loadAtEnd[0]} at end, on ${machine.cpus} CPUs): expect noisy throughput; CPU per request and one-connection latency are steadier`);
  }
  const report: Report = {
    startedAt,
    machine: {
      ...machine,
      postgresql: "version" in pg ? pg.version : null,
      layout: taskset ? `servers on CPU ${SERVER_CPU}, load generator and subscriber clients on CPU ${LOAD_CPU} (taskset); PostgreSQL unpinned` : "unpinned",
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadAtEnd,
    },
    settings: { ...settings, scenarios: [...settings.scenarios] },
    skipped,
    warnings,
    ladder,
    peers,
    transitions,
    fanout,
    reader,
    agentMessages,
    scale,
    memory,
    soak,
    reads,
  };
  console.log(formatText(report));
  const files = writeResults(report, knobsTable(), RESULTS_DIR);
  log(`figures written to ${files.markdown} and ${files.json}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
