import { fetchJson, type LoadResult, type RequestSpec, runLoad } from "./load.ts";
import type { ServerProcess } from "./server-process.ts";
import type { Settings } from "./settings.ts";

/**
 * A cycle every offering user can run forever, one committed transaction and one event per step:
 * Requested → Creating → OK → Requested deletion → Deleting → Error deleting → OK → …
 */
const NEXT: Record<string, { operation: string; to: string }> = {
  Requested: { operation: "begin_creating", to: "Creating" },
  "Error creating": { operation: "begin_creating", to: "Creating" },
  Creating: { operation: "set_ok", to: "OK" },
  "Pending account linking": { operation: "set_validation_complete", to: "OK" },
  "Pending additional validation": { operation: "set_validation_complete", to: "OK" },
  OK: { operation: "request_deletion", to: "Requested deletion" },
  "Requested deletion": { operation: "set_deleting", to: "Deleting" },
  Deleting: { operation: "set_error_deleting", to: "Error deleting" },
  "Error deleting": { operation: "set_ok", to: "OK" },
};

/** An offering user as the load generator last saw it; shared by the clients that work on it. */
export interface Tracked {
  uuid: string;
  state: string;
}

const auth = (token: string) => ({ authorization: `Token ${token}` });

/** The offering users that can take part in the cycle, with their current states. */
export async function cyclingOfferingUsers(baseUrl: string, token: string): Promise<Tracked[]> {
  const all = await fetchJson(`${baseUrl}/api/marketplace-offering-users/?page_size=300`, { headers: auth(token) });
  return (all.body as Array<{ uuid: string; state: string }>).filter((row) => NEXT[row.state]).map(({ uuid, state }) => ({ uuid, state }));
}

/** The state `user`'s next step leads to (its label, as REST and subscriptions' stateLabel show it). */
export const nextStateOf = (user: Tracked) => NEXT[user.state].to;

/** The next step of `user` as a REST request; a 200 moves the tracked state on. */
export function transitionRequest(token: string, user: Tracked): RequestSpec {
  const step = NEXT[user.state];
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

export interface TransitionRow {
  clients: number;
  /** Offering users worked on: each client its own share, or all clients the same few. */
  records: number;
  contended: boolean;
  result: LoadResult;
  /** Committed transitions per second (200s); the rest lost a race (400/409) or failed. */
  committedPerSecond: number;
}

/** Client `w` of `clients` walks `users[w], users[w + clients], …` round-robin; contended clients all walk the same few. */
function requestsFor(token: string, users: Tracked[], clients: number, contended: boolean) {
  const owned = contended ? Array.from({ length: clients }, () => users) : Array.from({ length: clients }, (_, w) => users.filter((_, i) => i % clients === w));
  const cursor = Array.from({ length: clients }, (_, w) => (contended ? w : 0));
  return (worker: number) => {
    const mine = owned[worker];
    return transitionRequest(token, mine[cursor[worker]++ % mine.length]);
  };
}

async function measure(app: ServerProcess, token: string, settings: Settings, clients: number, contendedRecords?: number) {
  const users = await cyclingOfferingUsers(app.baseUrl, token);
  const contended = contendedRecords !== undefined;
  const working = contended ? users.slice(0, contendedRecords) : users;
  if (!contended && working.length < clients) throw new Error(`only ${working.length} offering users can transition; ${clients} clients need one each`);
  const next = requestsFor(token, working, clients, contended);
  const run = (seconds: number) => runLoad({ baseUrl: app.baseUrl, connections: clients, warmupMs: 0, durationMs: seconds * 1000, next });
  if (settings.warmupSeconds > 0) await run(settings.warmupSeconds);
  const cpuBefore = await app.cpuMs();
  const result = await run(settings.transitionSeconds);
  result.serverCpuMsPerRequest = ((await app.cpuMs()) - cpuBefore) / result.requests;
  const committed = result.statuses["200"] ?? 0;
  return { clients, records: working.length, contended, result, committedPerSecond: committed / result.seconds };
}

const WARMUP_CLIENTS = 10;

/** Transitions per second at each client count (own records), then once with every client on the same records. */
export async function runTransitions(app: ServerProcess, token: string, settings: Settings, log: (message: string) => void): Promise<TransitionRow[]> {
  const rows: TransitionRow[] = [];
  const report = (row: TransitionRow) => {
    const r = row.result;
    const statuses = Object.entries(r.statuses).map(([status, n]) => `${status}×${n}`).join(" ");
    log(
      `  ${row.clients} client(s) on ${row.records} record(s)${row.contended ? " (shared)" : ""}: ${row.committedPerSecond.toFixed(0)} committed/s, ` +
        `p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, cpu ${r.serverCpuMsPerRequest!.toFixed(2)} ms/req, statuses ${statuses}`,
    );
    rows.push(row);
  };
  log(`transitions: ${settings.transitionClients.join(", ")} client(s), ${settings.transitionSeconds} s each`);
  // The mutation path has not run yet: compile it under load first, or the first (one-client) run measures the JIT.
  await measure(app, token, { ...settings, warmupSeconds: 0, transitionSeconds: settings.warmupSeconds * 2 }, WARMUP_CLIENTS);
  for (const clients of settings.transitionClients) report(await measure(app, token, settings, clients));
  if (settings.contention) report(await measure(app, token, settings, settings.contention.clients, settings.contention.records));
  return rows;
}
