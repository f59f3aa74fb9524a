import { alternatingLatency, type LoadResult, pool, runLoad } from "./load.ts";
import { probeDjango, startDrf } from "./peers/drf.ts";
import type { PeerServer } from "./peers/external-server.ts";
import { fetchPage, PEER_LABELS, PEER_TARGETS, type PageSummary, pageDifference, type PeerTarget, peerRequest } from "./peers/pages.ts";
import { installPostGraphile, startPostGraphile } from "./peers/postgraphile.ts";
import { withDatabaseCpu } from "./peers/process-cpu.ts";
import type { ServerProcess } from "./server-process.ts";
import type { Settings } from "./settings.ts";
import { databaseWorkPerTransition } from "./transition-work.ts";

/**
 * The peers scenario (issue 32): the frontend's page of offering users from the gateway (GraphQL and REST) and from
 * what a user would deploy instead — PostGraphile 5, Django REST Framework as Waldur runs it, and the bare node:http +
 * pg handler — on the same scratch database, each server on the server core, in rounds that take the targets in turn
 * (every other round backwards, so no target always follows the same one).
 */
export interface PeerRow {
  target: PeerTarget;
  label: string;
  result: LoadResult;
  roundRps: number[];
  /** CPU of the PostgreSQL backends connected to the scratch database, per measured request (/proc). */
  databaseCpuMsPerRequest?: number;
  /** Median latency of one connection taking the targets request by request: the target's service time. */
  serviceP50Ms: number;
  /** Database transactions per page (pg_stat_database: an autocommit statement is one), when counted. */
  transactionsPerRequest?: number;
}

export interface PeersOutcome {
  rows: PeerRow[];
  skipped: string[];
  warnings: string[];
}

export interface PeersContext {
  gateway: ServerProcess;
  token: string;
  databaseUrl: string;
  /** Starts one of bench/server.ts's servers (the bare handler) the way the rest of the round does. */
  startBare: () => Promise<ServerProcess>;
  /** Starts the gateway on the embedded database, seeded with the same data (its own token). */
  startEmbedded: () => Promise<ServerProcess>;
  stopServer: (server: ServerProcess) => Promise<void>;
  pinTo?: { taskset: string; cpu: number };
  settings: Settings;
  log: (message: string) => void;
}

/**
 * Load before each later round's segment. A node server idle for the other targets' segments (half a minute and more)
 * came back slow: its first segment after the longest idle took 1.3–1.7× the CPU per request of its others (REST's
 * and PostGraphile's in round 2, the embedded gateway's in round 3; DRF's did not move), while V8 grew its heap back.
 * Measured after 0.5 s of load, that was a fifth of a target's figure; 3 s left the embedded gateway's third segment at 1.2×.
 */
const RE_WARMUP_SECONDS = 5;
/** Seconds of load per target while the database's transactions are counted. */
const COUNTED_SECONDS = 2;
/** The first warm-up's bound when the requests are slow to come (a busy machine). */
const LONGEST_WARMUP_SECONDS = 60;

/**
 * Load for `seconds` and, before the first round, until `requests` were served too: the JIT optimises after so
 * many calls, not after so much time, and a busy machine serves the slow targets a few hundred requests in 5 s.
 */
async function warmUp(run: (seconds: number) => Promise<LoadResult>, seconds: number, requests: number) {
  const started = performance.now();
  let served = seconds > 0 ? (await run(seconds)).requests : 0;
  while (served < requests && performance.now() - started < LONGEST_WARMUP_SECONDS * 1000) served += (await run(1)).requests;
}

/** `token`: the target's own (a gateway with a database of its own), else the bench's. */
type Started = { server: PeerServer; label: string; stop?: () => Promise<void>; token?: string };

/** Each wanted target's server; a peer that cannot be installed, imported or started is skipped with the reason. */
async function startTargets(context: PeersContext, started: Map<PeerTarget, Started>, skipped: string[]) {
  const { settings, databaseUrl, pinTo, log } = context;
  const wanted = (target: PeerTarget) => settings.peerTargets.includes(target);
  const attempt = async (target: PeerTarget, start: () => Promise<Started | string>) => {
    try {
      const peer = await start();
      if (typeof peer === "string") skipped.push(`peers, ${target}: ${peer}`);
      else started.set(target, peer);
    } catch (error) {
      skipped.push(`peers, ${target}: ${(error as Error).message}`);
    }
  };
  for (const target of ["graphql", "rest"] as const) if (wanted(target)) started.set(target, { server: context.gateway, label: PEER_LABELS[target] });
  if (wanted("postgraphile")) {
    await attempt("postgraphile", async () => {
      const installed = await installPostGraphile(log);
      if ("unavailable" in installed) return installed.unavailable;
      const server = await startPostGraphile(databaseUrl, settings.serverPoolSize, pinTo, settings.perfDir);
      return { server, label: PEER_LABELS.postgraphile.replace("PostGraphile", `PostGraphile ${installed.version}`), stop: server.stop };
    });
  }
  if (wanted("drf")) {
    await attempt("drf", async () => {
      const django = await probeDjango(settings.peersPython);
      if ("unavailable" in django) return django.unavailable;
      const server = await startDrf(settings.peersPython, databaseUrl, { threads: settings.peersDrfThreads, auth: settings.peersDrfAuth }, pinTo);
      const auth = settings.peersDrfAuth === "token" ? "token" : "no auth";
      const label = `${PEER_LABELS.drf} (${django.versions}, 1 gthread worker × ${settings.peersDrfThreads}, ${auth})`;
      return { server, label, stop: server.stop };
    });
  }
  if (wanted("bare")) {
    const server = await context.startBare();
    started.set("bare", { server, label: PEER_LABELS.bare, stop: () => context.stopServer(server) });
  }
  if (wanted("embedded")) {
    const server = await context.startEmbedded();
    started.set("embedded", { server, label: PEER_LABELS.embedded, stop: () => context.stopServer(server), token: server.token });
  }
}

/** Every target must answer the gateway's page (same rows, same count); a target that answers no page is dropped. */
async function checkPages(started: Map<PeerTarget, Started>, token: string, outcome: PeersOutcome) {
  const pages = new Map<PeerTarget, PageSummary>();
  for (const [target, { server, stop, token: own }] of started) {
    try {
      pages.set(target, await fetchPage(target, server.baseUrl, own ?? token));
    } catch (error) {
      outcome.skipped.push(`peers, ${target}: ${(error as Error).message}`);
      started.delete(target);
      await stop?.();
    }
  }
  const reference = pages.get("graphql") ?? pages.get("rest");
  if (!reference) return;
  for (const [target, page] of pages) {
    const difference = pageDifference(reference, page);
    if (difference) outcome.warnings.push(`peers: ${target} does not answer the gateway's page: ${difference}`);
  }
}

/** Closed-loop load on one target, with the CPU its server and the database's backends used per measured request. */
async function measure({ server, token }: Started, target: PeerTarget, context: PeersContext, warmup: { seconds: number; requests: number }, database: string) {
  const { settings } = context;
  const spec = peerRequest(target, token ?? context.token);
  const run = (seconds: number) => runLoad({ baseUrl: server.baseUrl, connections: settings.peersConnections, warmupMs: 0, durationMs: seconds * 1000, next: () => spec });
  if (warmup.seconds > 0 || warmup.requests > 0) await warmUp(run, warmup.seconds, warmup.requests);
  const cpuBefore = await server.cpuMs();
  const { outcome: result, databaseCpuMs } = await withDatabaseCpu(database, () => run(settings.peersSegmentSeconds));
  return { result: { ...result, serverCpuMsPerRequest: ((await server.cpuMs()) - cpuBefore) / result.requests }, databaseCpuMs };
}

export async function runPeers(context: PeersContext): Promise<PeersOutcome> {
  const { settings, log } = context;
  const outcome: PeersOutcome = { rows: [], skipped: [], warnings: [] };
  const started = new Map<PeerTarget, Started>();
  try {
    await startTargets(context, started, outcome.skipped);
    await checkPages(started, context.token, outcome);
    const targets = PEER_TARGETS.filter((target) => started.has(target));
    const database = new URL(context.databaseUrl).pathname.slice(1);
    const runs = new Map<PeerTarget, Array<{ result: LoadResult; databaseCpuMs: number }>>(targets.map((t) => [t, []]));
    log(`peers: ${settings.peersRounds} round(s) × ${targets.length} targets, ${settings.peersSegmentSeconds} s each, ${settings.peersConnections} connections`);
    for (let round = 0; round < settings.peersRounds; round++) {
      for (const target of round % 2 ? [...targets].reverse() : targets) {
        const warmup = round === 0 ? { seconds: settings.warmupSeconds, requests: settings.peersWarmupRequests } : { seconds: RE_WARMUP_SECONDS, requests: 0 };
        const run = await measure(started.get(target)!, target, context, warmup, database);
        const { result } = run;
        log(
          `  round ${round + 1} ${target.padEnd(12)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms  ` +
            `cpu ${result.serverCpuMsPerRequest.toFixed(2)} ms/req  database ${(run.databaseCpuMs / result.requests).toFixed(2)} ms/req  ${result.errors} errors`,
        );
        runs.get(target)!.push(run);
      }
    }
    const tokenOf = (target: PeerTarget) => started.get(target)!.token ?? context.token;
    const alone = await alternatingLatency(targets.map((target) => ({ baseUrl: started.get(target)!.server.baseUrl, spec: peerRequest(target, tokenOf(target)) })), settings.serviceTimeSeconds * 1000);
    log(`  one connection: ${targets.map((target, i) => `${target} ${alone[i].p50Ms.toFixed(2)} ms`).join(", ")}`);
    outcome.rows = targets.map((target, i) => {
      const measured = runs.get(target)!;
      const result = pool(measured.map((m) => m.result));
      const databaseCpuMs = measured.reduce((sum, m) => sum + m.databaseCpuMs, 0);
      const { label } = started.get(target)!;
      return { target, label, result, roundRps: measured.map((m) => m.result.rps), databaseCpuMsPerRequest: databaseCpuMs / result.requests, serviceP50Ms: alone[i].p50Ms };
    });
    // The embedded gateway's database is in its own process: no transactions of the scratch database to count.
    const onScratch = targets.filter((target) => target !== "embedded");
    const pages = onScratch.map((target) => ({ layer: target, server: { target, server: started.get(target)!.server } }));
    const load = async ({ target, server }: { target: PeerTarget; server: PeerServer }) =>
      (await runLoad({ baseUrl: server.baseUrl, connections: settings.peersConnections, warmupMs: 0, durationMs: COUNTED_SECONDS * 1000, next: () => peerRequest(target, tokenOf(target)) })).requests;
    const work = await databaseWorkPerTransition(pages, context.databaseUrl, load, log, "page");
    for (const row of outcome.rows) row.transactionsPerRequest = work.find((w) => w.layer === row.target)?.transactionsPerTransition;
    for (const row of outcome.rows) if (row.result.errors) outcome.warnings.push(`peers: ${row.target} answered ${row.result.errors} requests with an error (${JSON.stringify(row.result.statuses)})`);
  } finally {
    for (const { stop } of started.values()) await stop?.();
  }
  return outcome;
}
