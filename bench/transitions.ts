import { type LoadResult, type RequestSpec, runLoad } from "./load.ts";
import { auth, cyclingOfferingUsers, nextOperationOf, type Tracked } from "./offering-user-cycle.ts";
import { databaseAlone } from "./transition-ceiling.ts";
import { databaseNameOf, withDatabaseCpu } from "./peers/process-cpu.ts";
import type { ServerProcess } from "./server-process.ts";
import type { Settings } from "./settings.ts";
import { type DatabaseWork, databaseWorkPerTransition } from "./transition-work.ts";

/** The next step of `user` as a REST request; a 200 moves the tracked state on. */
export function transitionRequest(token: string, user: Tracked): RequestSpec {
  const step = nextOperationOf(user);
  return {
    method: "POST",
    path: `/api/marketplace-offering-users/${user.uuid}/${step.operation}/`,
    headers: { ...auth(token), "content-type": "application/json" },
    body: Buffer.from("{}"),
    settled: (status) => {
      if (status === 200) user.state = step.to;
    },
  };
}

/** The gateway (REST adapter, full stack) or the bare node:http + pg handler (bench/bare-transition.ts). */
export type TransitionLayer = "gateway" | "bare";
export const TRANSITION_LAYERS: TransitionLayer[] = ["gateway", "bare"];

export interface TransitionRow {
  /** "database": the bare handler's statements without HTTP or a server (transition-ceiling.ts). */
  layer: TransitionLayer | "database";
  clients: number;
  /** Offering users worked on: each client its own share, or all clients the same few. */
  records: number;
  contended: boolean;
  result: LoadResult;
  /** Committed transitions per second (200s); the rest lost a race (400/409) or failed. */
  committedPerSecond: number;
  /** Server CPU per committed transition (ms). */
  cpuMsPerCommitted: number;
  /** CPU of the PostgreSQL backends on the bench's database per committed transition (ms), where /proc tells it. */
  databaseCpuMsPerCommitted?: number;
  /** What one committed transition of this layer costs the database, when it could be counted. */
  databaseWork?: DatabaseWork;
}

/** Client `w` of `clients` walks `users[w], users[w + clients], …` round-robin; contended clients all walk the same few. */
export function requestsFor(token: string, users: Tracked[], clients: number, contended: boolean) {
  const owned = contended ? Array.from({ length: clients }, () => users) : Array.from({ length: clients }, (_, w) => users.filter((_, i) => i % clients === w));
  const cursor = Array.from({ length: clients }, (_, w) => (contended ? w : 0));
  return (worker: number) => {
    const mine = owned[worker];
    return transitionRequest(token, mine[cursor[worker]++ % mine.length]);
  };
}

/** Transitions against `server` at `clients`; the states to start from are read over the gateway's REST list. */
async function measure(gateway: ServerProcess, server: ServerProcess, token: string, settings: Settings, database: string | undefined, clients: number, contendedRecords?: number) {
  const users = await cyclingOfferingUsers(gateway.baseUrl, token);
  const contended = contendedRecords !== undefined;
  const working = contended ? users.slice(0, contendedRecords) : users;
  if (!contended && working.length < clients) throw new Error(`only ${working.length} offering users can transition; ${clients} clients need one each`);
  const next = requestsFor(token, working, clients, contended);
  const run = (seconds: number) => runLoad({ baseUrl: server.baseUrl, connections: clients, warmupMs: 0, durationMs: seconds * 1000, next });
  if (settings.warmupSeconds > 0) await run(settings.warmupSeconds);
  const cpuBefore = await server.cpuMs();
  const { outcome: result, databaseCpuMs } = await withDatabaseCpu(database, () => run(settings.transitionSeconds));
  const cpuMs = (await server.cpuMs()) - cpuBefore;
  result.serverCpuMsPerRequest = cpuMs / result.requests;
  const committed = result.statuses["200"] ?? 0;
  return {
    clients,
    records: working.length,
    contended,
    result,
    committedPerSecond: committed / result.seconds,
    cpuMsPerCommitted: cpuMs / committed,
    databaseCpuMsPerCommitted: databaseCpuMs / committed,
  };
}

const WARMUP_CLIENTS = 10;
/** The database-alone run: as many connections as the committed/s target's clients. */
const CEILING_CLIENTS = 10;
/** One client's transitions, one after another, while the database's counters are read around them. */
const WORK_SECONDS = 1;

/**
 * Transitions per second at each client count (own records), then once with every client on the same records; each
 * run against the gateway and then the bare handler, on the same records, so that both do the same transitions.
 */
export async function runTransitions(
  servers: Record<"gateway", ServerProcess> & Partial<Record<"bare", ServerProcess>>,
  token: string,
  settings: Settings,
  log: (message: string) => void,
  databaseUrl?: string,
): Promise<TransitionRow[]> {
  const database = databaseUrl ? databaseNameOf(databaseUrl) : undefined;
  const layers = TRANSITION_LAYERS.flatMap((layer) => (servers[layer] ? [{ layer, server: servers[layer] }] : []));
  const rows: TransitionRow[] = [];
  const report = (row: TransitionRow) => {
    const r = row.result;
    const statuses = Object.entries(r.statuses).map(([status, n]) => `${status}×${n}`).join(" ");
    log(
      `  ${row.layer.padEnd(7)} ${row.clients} client(s) on ${row.records} record(s)${row.contended ? " (shared)" : ""}: ${row.committedPerSecond.toFixed(0)} committed/s, ` +
        `p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, cpu ${r.serverCpuMsPerRequest!.toFixed(2)} ms/req, ${row.cpuMsPerCommitted.toFixed(2)} ms/commit, database cpu ${row.databaseCpuMsPerCommitted?.toFixed(2)} ms/commit, statuses ${statuses}`,
    );
    rows.push(row);
  };
  log(`transitions: ${layers.map((l) => l.layer).join(" and ")}, ${settings.transitionClients.join(", ")} client(s), ${settings.transitionSeconds} s each`);
  // The mutation path has not run yet: compile it under load first, or the first (one-client) run measures the JIT.
  const warmup = { ...settings, warmupSeconds: 0, transitionSeconds: settings.warmupSeconds * 2 };
  for (const { server } of layers) await measure(servers.gateway, server, token, warmup, database, WARMUP_CLIENTS);
  const runs: Array<[number, number | undefined]> = settings.transitionClients.map((clients) => [clients, undefined]);
  if (settings.contention) runs.push([settings.contention.clients, settings.contention.records]);
  for (const [clients, records] of runs) {
    for (const { layer, server } of layers) report({ layer, ...(await measure(servers.gateway, server, token, settings, database, clients, records)) });
  }
  if (databaseUrl) {
    const ceiling = await databaseAlone(databaseUrl, await cyclingOfferingUsers(servers.gateway.baseUrl, token), CEILING_CLIENTS, settings.transitionSeconds, settings.warmupSeconds);
    const databaseCpu = ceiling.databaseCpuMsPerCommitted.toFixed(2);
    log(`  database alone, ${CEILING_CLIENTS} connections: ${ceiling.committedPerSecond.toFixed(0)} committed/s, p50 ${ceiling.result.p50Ms.toFixed(2)} ms, p99 ${ceiling.result.p99Ms.toFixed(2)} ms, database cpu ${databaseCpu} ms/commit`);
    rows.push({ layer: "database", contended: false, cpuMsPerCommitted: Number.NaN, ...ceiling });
    // Read the states before the counting starts; the tracked states move on with every committed transition.
    const users = await cyclingOfferingUsers(servers.gateway.baseUrl, token);
    const exercise = async (server: ServerProcess) => {
      const one = await runLoad({ baseUrl: server.baseUrl, connections: 1, warmupMs: 0, durationMs: WORK_SECONDS * 1000, next: requestsFor(token, users, 1, false) });
      return one.statuses["200"] ?? 0;
    };
    for (const work of await databaseWorkPerTransition(layers, databaseUrl, exercise, log)) {
      for (const row of rows.filter((r) => r.layer === work.layer)) row.databaseWork = work;
    }
  }
  return rows;
}
