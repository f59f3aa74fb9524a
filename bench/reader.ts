import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { fetchJson, runLoad } from "./load.ts";
import { SERVER_CPU } from "./machine.ts";
import { startServer } from "./server-process.ts";
import type { Settings } from "./settings.ts";
import { cyclingOfferingUsers } from "./offering-user-cycle.ts";
import { requestsFor, transitionRequest } from "./transitions.ts";

/**
 * One reader that keeps up, under a write load the server cannot follow: a graphql-ws subscriber of
 * offeringUserChanged (staff, with the record and its event: what a dashboard shows) that reads everything it is sent,
 * while REST clients run offering-user transitions. A server that falls behind one subscriber goes on from the event
 * log (catch-ups) rather than dropping it; the reader should get every change once and stay connected.
 */
export interface ReaderRow {
  clients: number;
  /** SUBSCRIPTION_QUEUE_MAX_MESSAGES of the server. */
  queueMaxMessages: number;
  writeSeconds: number;
  committed: number;
  committedPerSecond: number;
  /** Changes the reader received per second while the writes ran. */
  deliveredPerSecond: number;
  /** From the end of the writes to the last change's arrival. */
  drainSeconds: number;
  catchUps: number;
  /** Committed changes the reader never received, and changes it received twice. */
  missing: number;
  duplicates: number;
  /** Close code and reason, when the server closed the reader's connection. */
  closed: string | null;
}

const QUERY = "subscription { offeringUserChanged { state previousState offeringUser { uuid username state } event { eventId eventType created } } }";
const METRICS_TOKEN = "bench-reader";
const PRIMING_ATTEMPTS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function openReader(url: string, token: string) {
  const socket = new WebSocket(url, "graphql-transport-ws", { perMessageDeflate: false });
  const eventIds: number[] = [];
  let closed: string | null = null;
  socket.on("close", (code, reason) => (closed = `${code} ${reason}`));
  const subscribed = new Promise<void>((resolve, reject) => {
    socket.on("error", reject);
    socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Token ${token}` } })));
    socket.on("message", (data) => {
      const message = JSON.parse(String(data));
      if (message.type === "next") eventIds.push(message.payload.data?.offeringUserChanged?.event.eventId ?? Number.NaN);
      if (message.type !== "connection_ack") return;
      socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: QUERY } }));
      resolve();
    });
  });
  return { subscribed, eventIds, closed: () => closed, close: () => socket.terminate() };
}

/** The catch-ups the server counted, from its /metrics. */
async function catchUps(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const lines = (await response.text()).split("\n").filter((line) => line.startsWith("gateway_subscription_catch_ups_total{"));
  return lines.reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

type ReaderRun = Settings["readerRuns"][number];

/** Each run on a server of its own. */
export async function runReader(databaseUrl: string, token: string, settings: Settings, taskset: string | undefined, log: (m: string) => void): Promise<ReaderRow[]> {
  const rows: ReaderRow[] = [];
  for (const run of settings.readerRuns) rows.push(await readerRun(run, databaseUrl, token, settings, taskset, log));
  return rows;
}

async function readerRun(run: ReaderRun, databaseUrl: string, token: string, settings: Settings, taskset: string | undefined, log: (m: string) => void): Promise<ReaderRow> {
  const { clients, seconds: writeSeconds, queueMaxMessages } = run;
  log(`reader: one staff subscriber of offeringUserChanged, ${clients} REST clients writing for ${writeSeconds} s, queue of ${queueMaxMessages}`);
  const env = { SUBSCRIPTION_QUEUE_MAX_MESSAGES: String(queueMaxMessages), METRICS_TOKEN };
  const app = await startServer({ kind: "app", databaseUrl, env, cpuProfileDir: settings.cpuProfileDir, pinTo: taskset ? { taskset, cpu: SERVER_CPU } : undefined });
  const reader = openReader(`${app.baseUrl.replace(/^http/, "ws")}/graphql`, token);
  try {
    await reader.subscribed;
    const users = await cyclingOfferingUsers(app.baseUrl, token);
    // The subscription hears of changes once the server has registered it: transition until one arrives.
    for (let attempt = 0; attempt < PRIMING_ATTEMPTS && !reader.eventIds.length; attempt++) {
      const spec = transitionRequest(token, users[0]);
      spec.settled?.((await fetchJson(app.baseUrl + spec.path, { method: spec.method, headers: spec.headers, body: spec.body!.toString() })).status);
      await sleep(200);
    }
    const primed = reader.eventIds.length;
    const load = await runLoad({ baseUrl: app.baseUrl, connections: clients, warmupMs: 0, durationMs: writeSeconds * 1000, next: requestsFor(token, users, clients, false) });
    const writesEnded = performance.now();
    const deliveredWhileWriting = reader.eventIds.length - primed;
    const committed = load.statuses["200"] ?? 0;
    const drainLimit = performance.now() + Math.max(60, 10 * writeSeconds) * 1000;
    while (new Set(reader.eventIds.slice(primed)).size < committed && !reader.closed() && performance.now() < drainLimit) await sleep(50);
    const received = reader.eventIds.slice(primed);
    const row: ReaderRow = {
      clients, queueMaxMessages, writeSeconds, committed, committedPerSecond: committed / load.seconds,
      deliveredPerSecond: deliveredWhileWriting / load.seconds, drainSeconds: (performance.now() - writesEnded) / 1000,
      catchUps: await catchUps(app.baseUrl), missing: committed - new Set(received).size, duplicates: received.length - new Set(received).size, closed: reader.closed(),
    };
    log(
      `  ${row.committedPerSecond.toFixed(0)} committed/s, ${row.deliveredPerSecond.toFixed(0)} delivered/s while writing, the rest in ${row.drainSeconds.toFixed(1)} s; ` +
        `${row.catchUps} catch-up(s), ${row.missing} missing, ${row.duplicates} duplicate(s), ${row.closed ? `closed ${row.closed}` : "still connected"}`,
    );
    return row;
  } finally {
    reader.close();
    await app.stop();
  }
}
