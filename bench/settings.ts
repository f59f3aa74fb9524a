import type { DrfAuth } from "./peers/drf.ts";
import { DEFAULT_SERVER_URL } from "./scratch-database.ts";

/** Every knob of `npm run bench`: environment variable, default, and what it sets. Defaults finish in a few minutes. */
const KNOBS = {
  scenarios: { env: "BENCH_SCENARIOS", default: "ladder,peers,reads,transitions,fanout,reader,agent-messages,scale,memory,soak", doc: "Which scenarios run (comma-separated)" },
  connections: { env: "BENCH_CONNECTIONS", default: "16", doc: "Keep-alive connections of the ladder's closed-loop load" },
  warmupSeconds: { env: "BENCH_WARMUP_S", default: "5", doc: "Warm-up before each scenario's first measured segment" },
  segmentSeconds: { env: "BENCH_SEGMENT_S", default: "2", doc: "Measured seconds of one ladder segment (one layer, one read, one round)" },
  rounds: { env: "BENCH_ROUNDS", default: "2", doc: "Ladder rounds: every layer is measured once per round, in turn" },
  serviceTimeSeconds: { env: "BENCH_SERVICE_TIME_S", default: "2", doc: "One connection cycling through the layers: unloaded latency" },
  peers: { env: "BENCH_PEERS", default: "graphql,rest,postgraphile,drf,bare,embedded", doc: "Targets of the peers scenario: the gateway's GraphQL and REST page, PostGraphile 5, Django REST Framework, the bare handler, the gateway's GraphQL page on the embedded database" },
  peersConnections: { env: "BENCH_PEERS_CONNECTIONS", default: "10", doc: "Keep-alive connections of the peers scenario's closed-loop load" },
  peersSegmentSeconds: { env: "BENCH_PEERS_SEGMENT_S", default: "5", doc: "Measured seconds of one peers segment (one target, one round)" },
  peersRounds: { env: "BENCH_PEERS_ROUNDS", default: "3", doc: "Peers rounds: every target once per round, in turn (every other round backwards)" },
  peersWarmupRequests: { env: "BENCH_PEERS_WARMUP_REQUESTS", default: "3000", doc: "Requests each peers target serves in its first warm-up at least (beyond BENCH_WARMUP_S; at most 60 s)" },
  peersDrfAuth: { env: "BENCH_PEERS_DRF_AUTH", default: "token", doc: "token: the DRF peer authenticates each request's token as Waldur's DRF does (one query); none: no authentication" },
  peersPython: { env: "BENCH_PEERS_PYTHON", default: "/usr/bin/python3", doc: "Python that runs the DRF peer (imports Debian's Django, DRF, psycopg2 and gunicorn)" },
  peersDrfThreads: { env: "BENCH_PEERS_DRF_THREADS", default: "10", doc: "Threads of the DRF peer's one gunicorn gthread worker (each with its own database connection)" },
  transitionClients: { env: "BENCH_TRANSITION_CLIENTS", default: "1,10,100", doc: "Concurrent clients of the transition runs (own records)" },
  transitionSeconds: { env: "BENCH_TRANSITION_S", default: "3", doc: "Measured seconds of each transition run" },
  contention: { env: "BENCH_CONTENTION", default: "10x2", doc: "Contended run: CLIENTSxRECORDS, every client on the same records (0: none)" },
  fanoutCases: {
    env: "BENCH_FANOUT",
    default: "1000,10000,10000/distinct,10000/1000-viewers,10000/1000-viewers/distinct-roles",
    doc: "Fan-out runs, comma-separated: SUBSCRIBERS[/distinct][/V-viewers][/distinct-roles] (distinct: a document of its own per subscriber; V viewers: subscribers spread over V users holding one set of roles; distinct-roles: each with a set of their own)",
  },
  fanoutTransitions: { env: "BENCH_FANOUT_TRANSITIONS", default: "5", doc: "Transitions timed per fan-out run" },
  fanoutWorkers: { env: "BENCH_FANOUT_WORKERS", default: "2", doc: "Client processes holding the subscribers" },
  fanoutTimeoutSeconds: { env: "BENCH_FANOUT_TIMEOUT_S", default: "60", doc: "Longest wait for one transition to reach every subscriber" },
  reader: {
    env: "BENCH_READER",
    default: "10x20/1000,100x20/1000",
    doc: "Reader runs, comma-separated: CLIENTSxSECONDS of REST transitions while one staff subscriber reads everything, on a server with SUBSCRIPTION_QUEUE_MAX_MESSAGES=QUEUE",
  },
  agentMessages: {
    env: "BENCH_AGENT_MESSAGES",
    default: "200",
    doc: "Orders timed one at a time from REST write to the site agent's STOMP consumer (five times as many from 10 clients); needs BENCH_RABBITMQ_* or TEST_RABBITMQ_* (scripts/rabbitmq-node.sh)",
  },
  scaleOfferingUsers: {
    env: "BENCH_SCALE_OFFERING_USERS",
    default: "100000",
    doc: "Offering users of the scale scenario's full size (its small size: 1% of this and of BENCH_SCALE_EVENTS)",
  },
  scaleEvents: { env: "BENCH_SCALE_EVENTS", default: "1000000", doc: "Audit events of the scale scenario's full size" },
  memoryRuns: { env: "BENCH_MEMORY_RUNS", default: "3", doc: "Starts measured side by side per database by the memory scenario (the figures are their medians)" },
  memoryArgs: {
    env: "BENCH_MEMORY_ARGS",
    default: "",
    doc: "Node arguments of the memory scenario's server instead of package.json's start script (e.g. `--import tsx src/main.ts` for the unbuilt sources)",
  },
  readsSegmentSeconds: { env: "BENCH_READS_SEGMENT_S", default: "3", doc: "Measured seconds of one reads segment (one read, one way, one round)" },
  readsRounds: { env: "BENCH_READS_ROUNDS", default: "3", doc: "Reads rounds: every way (compiler, Prisma's client, raw driver) once per round, in turn" },
  soakMinutes: { env: "BENCH_SOAK_MINUTES", default: "30", doc: "Minutes of the soak scenario's paced mixed use of npm start's server on the embedded database" },
  soakRate: { env: "BENCH_SOAK_RATE", default: "40", doc: "Requests per second of the soak scenario (one at a time: a busy machine serves fewer)" },
  pin: { env: "BENCH_PIN", default: "1", doc: "0: do not pin processes to cores with taskset" },
  postgresUrl: { env: "BENCH_POSTGRES_URL", default: DEFAULT_SERVER_URL, doc: "PostgreSQL server (scratch databases BENCH_SCRATCH_DATABASE, its _scale and _memory are created and dropped)" },
  scratchDatabase: { env: "BENCH_SCRATCH_DATABASE", default: "mg_bench", doc: "Name of the scratch database (the scale scenario adds _scale): two runs on one server need different names" },
  cpuProfileDir: { env: "BENCH_CPU_PROFILE_DIR", default: "", doc: "Write V8 CPU profiles of the servers there" },
  perfDir: {
    env: "BENCH_PERF_DIR",
    default: "",
    doc: "Record on-CPU profiles of the servers there with Linux perf (task-clock; V8 CPU profiles, which count wall time, when perf cannot run); read them with bench/perf-summary.ts",
  },
} as const;

type Knob = keyof typeof KNOBS;
/** shared: every subscriber sends the same document; distinct: each its own (a unique operation name), so none shares an execution. */
export type FanoutDocuments = "shared" | "distinct";
export interface FanoutCase {
  subscribers: number;
  documents: FanoutDocuments;
  /** Distinct users the subscribers are spread over (1: all the bench's staff user). */
  viewers: number;
  /** Whether each of those users holds a set of roles of their own (else all hold the same). */
  distinctRoles: boolean;
}

function fanoutCases(): FanoutCase[] {
  return raw("fanoutCases").split(",").flatMap((text) => {
    const [count, ...options] = text.trim().split("/");
    const subscribers = Number(count);
    if (!Number.isInteger(subscribers) || subscribers <= 0) return [];
    const viewers = Number(/^(\d+)-viewers$/.exec(options.find((o) => o.endsWith("-viewers")) ?? "")?.[1] ?? 1);
    const documents: FanoutDocuments = options.includes("distinct") ? "distinct" : "shared";
    return [{ subscribers, documents, viewers: Math.max(1, viewers), distinctRoles: options.includes("distinct-roles") }];
  });
}
const raw = (knob: Knob) => process.env[KNOBS[knob].env]?.trim() || KNOBS[knob].default;
const number = (knob: Knob) => {
  const value = Number(raw(knob));
  if (!Number.isFinite(value) || value < 0) throw new Error(`${KNOBS[knob].env} must be a non-negative number`);
  return value;
};
const numbers = (knob: Knob) => raw(knob).split(",").filter(Boolean).map(Number).filter((n) => Number.isInteger(n) && n > 0);

function readerRuns() {
  return raw("reader").split(",").map((text) => {
    const match = /^(\d+)x(\d+)\/(\d+)$/.exec(text.trim());
    if (!match) throw new Error(`${KNOBS.reader.env} must list CLIENTSxSECONDS/QUEUE, e.g. ${KNOBS.reader.default}`);
    return { clients: Number(match[1]), seconds: Number(match[2]), queueMaxMessages: Number(match[3]) };
  });
}

function drfAuth(): DrfAuth {
  const value = raw("peersDrfAuth");
  if (value !== "token" && value !== "none") throw new Error(`${KNOBS.peersDrfAuth.env} must be token or none`);
  return value;
}

function contention() {
  const match = /^(\d+)x(\d+)$/.exec(raw("contention"));
  return match ? { clients: Number(match[1]), records: Number(match[2]) } : undefined;
}

export const settings = {
  scenarios: new Set(raw("scenarios").split(",").map((s) => s.trim())),
  connections: number("connections"),
  warmupSeconds: number("warmupSeconds"),
  segmentSeconds: number("segmentSeconds"),
  rounds: Math.max(1, number("rounds")),
  serviceTimeSeconds: number("serviceTimeSeconds"),
  peerTargets: raw("peers").split(",").map((s) => s.trim()),
  peersConnections: Math.max(1, number("peersConnections")),
  peersSegmentSeconds: number("peersSegmentSeconds"),
  peersRounds: Math.max(1, number("peersRounds")),
  peersWarmupRequests: number("peersWarmupRequests"),
  peersDrfAuth: drfAuth(),
  peersPython: raw("peersPython"),
  peersDrfThreads: Math.max(1, number("peersDrfThreads")),
  transitionClients: numbers("transitionClients"),
  transitionSeconds: number("transitionSeconds"),
  contention: contention(),
  fanoutCases: fanoutCases(),
  fanoutTransitions: Math.max(1, number("fanoutTransitions")),
  fanoutWorkers: Math.max(1, number("fanoutWorkers")),
  fanoutTimeoutSeconds: number("fanoutTimeoutSeconds"),
  readerRuns: readerRuns(),
  agentMessages: Math.max(1, number("agentMessages")),
  scaleOfferingUsers: Math.max(100, number("scaleOfferingUsers")),
  scaleEvents: Math.max(100, number("scaleEvents")),
  memoryRuns: Math.max(1, number("memoryRuns")),
  memoryArgs: raw("memoryArgs").split(/\s+/).filter(Boolean),
  readsSegmentSeconds: number("readsSegmentSeconds"),
  readsRounds: Math.max(1, number("readsRounds")),
  soakMinutes: Math.max(2, number("soakMinutes")),
  soakRate: Math.max(1, number("soakRate")),
  pin: raw("pin") !== "0",
  postgresUrl: raw("postgresUrl"),
  scratchDatabase: raw("scratchDatabase"),
  cpuProfileDir: raw("cpuProfileDir") || undefined,
  perfDir: raw("perfDir") || undefined,
  /** Connection pool of every server under test (gateway, Hono + Prisma, bare). */
  serverPoolSize: 10,
};

export type Settings = typeof settings;

/** The knobs as a markdown table, for the results file. */
export const knobsTable = () =>
  ["| Variable | Default | What it sets |", "|---|---|---|", ...Object.values(KNOBS).map((k) => `| \`${k.env}\` | ${k.default ? `\`${k.default}\`` : "unset"} | ${k.doc} |`)].join("\n");
