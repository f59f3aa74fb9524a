import fs from "node:fs";
import path from "node:path";
import { caseLabel, type FanoutRow } from "./fanout.ts";
import type { LadderRow } from "./ladder.ts";
import { LAYERS, type Layer, type Read, READS } from "./scenarios.ts";
import { TRANSITION_LAYERS, type TransitionLayer, type TransitionRow } from "./transitions.ts";
import type { AgentMessagesRow } from "./agent-messages.ts";
import { SCALE_TARGET_RATIO, type ScaleResult, type ScaleRow } from "./scale.ts";
import { IDLE_RSS_TARGET_MB, type MemoryRow } from "./idle-memory.ts";
import { SOAK_GROWTH_TARGET, type SoakRow } from "./soak.ts";
import { LIBRARY_WITHIN, type ReadsRow } from "./reads.ts";
import type { ReaderRow } from "./reader.ts";
import type { PeerRow } from "./peers.ts";
import { peerTables, peerTargets } from "./peers/report.ts";

export interface Report {
  startedAt: string;
  machine: Record<string, unknown>;
  settings: Record<string, unknown>;
  /** Scenarios not run, and why. */
  skipped: string[];
  /** E.g. other work on the machine, or a layer answering other JSON than REST. */
  warnings: string[];
  ladder: LadderRow[];
  peers: PeerRow[];
  transitions: TransitionRow[];
  fanout: FanoutRow[];
  reader: ReaderRow[];
  agentMessages: AgentMessagesRow[];
  scale: ScaleResult | null;
  memory: MemoryRow[];
  soak?: SoakRow;
  reads: ReadsRow[];
}

export interface Target {
  name: string;
  value: number;
  aim: string;
  met: boolean | undefined;
}

const LAYER_LABELS: Record<Layer, string> = {
  bare: "bare node:http + pg",
  "hono-prisma": "Hono route + Prisma",
  graphql: "POST /graphql (route's document)",
  rest: "REST adapter (full stack)",
};
const READ_LABELS: Record<Read, string> = { one: "one offering user by uuid", list: "offering users, page_size=10" };

const fixed = (value: number | undefined, digits = 1) => (value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : "-");
const rowOf = (report: Report, layer: Layer, read: Read) => report.ladder.find((r) => r.layer === layer && r.read === read);
const rpsRatio = (report: Report, upper: Layer, lower: Layer, read: Read) => {
  const [a, b] = [rowOf(report, upper, read), rowOf(report, lower, read)];
  return a && b ? a.result.rps / b.result.rps : Number.NaN;
};
const cpuRatio = (report: Report, upper: Layer, lower: Layer, read: Read) => {
  const [a, b] = [rowOf(report, upper, read), rowOf(report, lower, read)];
  return a && b ? a.result.serverCpuMsPerRequest! / b.result.serverCpuMsPerRequest! : Number.NaN;
};
/** The CPU-bound aim of the performance issue: the full stack at most this many times the bare handler's CPU per request. */
const CPU_RATIO_AIM = 2.5;
const COMMITTED_PER_SECOND_AIM = 1000;
const AIM_CLIENTS = 10;
/** Issue 32: committed transitions through the gateway at least this share of the database alone's, with p99 under the aim. */
const CEILING_SHARE_AIM = 0.75;
const TRANSITION_P99_AIM_MS = 50;

const transitionRowOf = (report: Report, layer: TransitionLayer, clients: number, contended: boolean) =>
  report.transitions.find((t) => t.layer === layer && t.clients === clients && t.contended === contended);
/** Gateway / bare server CPU per committed transition, for one run of both. */
const transitionCpuRatio = (report: Report, clients: number, contended: boolean) => {
  const [gateway, bare] = TRANSITION_LAYERS.map((layer) => transitionRowOf(report, layer, clients, contended));
  return gateway && bare ? gateway.cpuMsPerCommitted / bare.cpuMsPerCommitted : Number.NaN;
};

export function targets(report: Report): Target[] {
  const list: Target[] = [];
  if (report.ladder.length) {
    for (const read of READS) {
      const value = rpsRatio(report, "rest", "graphql", read);
      list.push({ name: `REST / GraphQL throughput, ${READ_LABELS[read]}`, value, aim: ">= 0.90", met: value >= 0.9 });
    }
    const fullStack = rpsRatio(report, "rest", "bare", "list");
    list.push({ name: "full stack (REST) / bare node:http + pg throughput, list", value: fullStack, aim: ">= 0.35", met: fullStack >= 0.35 });
    for (const read of READS) {
      const value = cpuRatio(report, "rest", "bare", read);
      list.push({ name: `full stack (REST) / bare CPU per request, ${READ_LABELS[read]}`, value, aim: `<= ${CPU_RATIO_AIM}`, met: value <= CPU_RATIO_AIM });
    }
  }
  list.push(...peerTargets(report.peers));
  const gatewayAtAim = transitionRowOf(report, "gateway", AIM_CLIENTS, false);
  if (gatewayAtAim) {
    const committed = gatewayAtAim.committedPerSecond;
    const ceiling = report.transitions.find((t) => t.layer === "database");
    const alone = ceiling ? ` (the database alone: ${fixed(ceiling.committedPerSecond, 0)}/s)` : "";
    list.push({ name: `committed transitions/s through REST, ${AIM_CLIENTS} clients${alone}`, value: committed, aim: `>= ${COMMITTED_PER_SECOND_AIM}`, met: committed >= COMMITTED_PER_SECOND_AIM });
    if (ceiling) {
      const share = committed / ceiling.committedPerSecond;
      const p99 = gatewayAtAim.result.p99Ms;
      const bare = transitionRowOf(report, "bare", AIM_CLIENTS, false);
      const bareShare = bare ? `; the bare handler: ${fixed(bare.committedPerSecond / ceiling.committedPerSecond, 2)}` : "";
      const name = `committed transitions/s through REST ÷ the database alone, ${AIM_CLIENTS} clients (p99 ${fixed(p99, 1)} ms, aim < ${TRANSITION_P99_AIM_MS}${bareShare})`;
      list.push({ name, value: share, aim: `>= ${CEILING_SHARE_AIM}`, met: share >= CEILING_SHARE_AIM && p99 < TRANSITION_P99_AIM_MS });
    }
    const ratio = transitionCpuRatio(report, AIM_CLIENTS, false);
    if (Number.isFinite(ratio)) list.push({ name: `gateway / bare CPU per committed transition, ${AIM_CLIENTS} clients`, value: ratio, aim: `<= ${CPU_RATIO_AIM}`, met: ratio <= CPU_RATIO_AIM });
  }
  if (report.scale) {
    const [deep, shallow] = [true, false].map((isDeep) => report.scale!.rows.filter((r) => r.deep === isDeep));
    const share = (rows: ScaleRow[]) => ({ within: rows.filter((r) => r.pass).length, of: rows.length });
    const pages = share(shallow);
    const name = `scale: share of first pages (each filter and ordering) within ${SCALE_TARGET_RATIO}× at 100× the data (${pages.within} of ${pages.of})`;
    list.push({ name, value: pages.within / pages.of, aim: "1", met: pages.within === pages.of });
    // The alternative for deep pages: Waldur's behaviour (OFFSET), documented in docs/operations.md.
    const deepPages = share(deep);
    if (deepPages.of) {
      const deepName = `scale: share of deep pages within ${SCALE_TARGET_RATIO}× (${deepPages.within} of ${deepPages.of}; beyond: docs/operations.md "Deep pages")`;
      list.push({ name: deepName, value: deepPages.within / deepPages.of, aim: "1 or documented", met: true });
    }
  }
  for (const row of report.memory.filter((m) => m.database === "postgresql")) {
    list.push({ name: "idle RSS (PostgreSQL), MB", value: row.idleRssMb, aim: `<= ${IDLE_RSS_TARGET_MB}`, met: row.idleRssMb <= IDLE_RSS_TARGET_MB });
  }
  for (const row of report.reads.filter((r) => r.way === "prisma")) {
    const compiler = report.reads.find((r) => r.read === row.read && r.way === "compiler");
    const name = `reads: Prisma's client CPU over the raw driver's, ${row.read} (the compiler: ${compiler ? compiler.overRaw.toFixed(2) : "-"}×; within ${LIBRARY_WITHIN}× the compiler would go)`;
    list.push({ name, value: row.overRaw, aim: `<= ${LIBRARY_WITHIN} to replace the compiler`, met: undefined });
  }
  if (report.soak) {
    const { soak } = report;
    const name = `soak: RSS peak of minute ${soak.minutes} over minute 2, embedded database (${soak.rssAfterMinuteMb.toFixed(0)} → ${soak.rssEndMb.toFixed(0)} MB)`;
    list.push({ name, value: soak.growth, aim: `<= ${SOAK_GROWTH_TARGET}`, met: soak.growth <= SOAK_GROWTH_TARGET && soak.failures === 0 });
  }
  for (const row of report.reader) {
    const name = `reader under a write load: changes missing or repeated, or closed (${row.catchUps} catch-ups)`;
    list.push({ name, value: row.missing + row.duplicates, aim: "0, still connected", met: row.missing + row.duplicates === 0 && !row.closed });
  }
  for (const tenThousand of report.fanout.filter((r) => r.subscribers === 10_000)) {
    const reached = tenThousand.connected === 10_000 && tenThousand.missed === 0;
    const name = `fan-out to ${caseLabel(tenThousand)}: p99 request → last subscriber (ms)`;
    list.push({ name, value: tenThousand.lastP99Ms, aim: "< 1000", met: reached && tenThousand.lastP99Ms < 1000 });
  }
  return list;
}

type Table = { title: string; header: string[]; rows: string[][] };

function tables(report: Report): Table[] {
  const ladder: Table = {
    title: "Ladder (PostgreSQL): the same read at each layer",
    header: ["read", "layer", "req/s", "p50 ms", "p99 ms", "CPU ms/req", "1-conn p50 ms", "errors"],
    rows: report.ladder.map((r) => [READ_LABELS[r.read], LAYER_LABELS[r.layer], fixed(r.result.rps, 0), fixed(r.result.p50Ms, 2), fixed(r.result.p99Ms, 2), fixed(r.result.serverCpuMsPerRequest, 2), fixed(r.serviceP50Ms, 2), String(r.result.errors)]),
  };
  const costs: Table = {
    title: "What each layer costs relative to the one below",
    header: ["read", "layer / layer below", "throughput ratio", "CPU ratio", "added CPU ms/req", "added 1-conn p50 ms"],
    rows: report.ladder.length
      ? READS.flatMap((read) =>
          [...LAYERS.slice(1).map((upper, i) => [upper, LAYERS[i]] as const), ["rest", "bare"] as const].map(([upper, lower]) => {
            const [a, b] = [rowOf(report, upper, read)!, rowOf(report, lower, read)!];
            return [READ_LABELS[read], `${upper} / ${lower}`, fixed(a.result.rps / b.result.rps, 3), fixed(cpuRatio(report, upper, lower, read), 2), fixed(a.result.serverCpuMsPerRequest! - b.result.serverCpuMsPerRequest!, 2), fixed(a.serviceP50Ms - b.serviceP50Ms, 2)];
          }),
        )
      : [],
  };
  const transitions: Table = {
    title: "Offering-user transitions (PostgreSQL): REST through the gateway, the bare node:http + pg handler, and the bare handler's statements alone (database: no HTTP, no server)",
    header: ["clients", "records", "layer", "committed/s", "req/s", "p50 ms", "p99 ms", "CPU ms/req", "CPU ms/commit", "DB CPU ms/commit", "xacts/commit", "rows ins+upd/commit", "statuses"],
    rows: report.transitions.map((t) => [
      String(t.clients), t.contended ? `${t.records} shared by all` : `own (${t.records} in all)`, t.layer, fixed(t.committedPerSecond, 0), fixed(t.result.rps, 0), fixed(t.result.p50Ms, 2), fixed(t.result.p99Ms, 2),
      fixed(t.result.serverCpuMsPerRequest, 2), fixed(t.cpuMsPerCommitted, 2), fixed(t.databaseCpuMsPerCommitted, 2), fixed(t.databaseWork?.transactionsPerTransition, 2),
      t.databaseWork ? `${fixed(t.databaseWork.rowsInsertedPerTransition, 2)}+${fixed(t.databaseWork.rowsUpdatedPerTransition, 2)}` : "-", Object.entries(t.result.statuses).map(([s, n]) => `${s}: ${n}`).join(", "),
    ]),
  };
  const transitionCosts: Table = {
    title: "What the gateway costs per transition relative to the bare handler",
    header: ["clients", "records", "committed/s ratio", "p99 ratio", "CPU ratio (per commit)", "added CPU ms/commit"],
    rows: report.transitions.filter((t) => t.layer === "gateway").flatMap((gateway) => {
      const bare = transitionRowOf(report, "bare", gateway.clients, gateway.contended);
      if (!bare) return [];
      return [[
        String(gateway.clients), gateway.contended ? `${gateway.records} shared by all` : "own", fixed(gateway.committedPerSecond / bare.committedPerSecond, 3), fixed(gateway.result.p99Ms / bare.result.p99Ms, 2),
        fixed(transitionCpuRatio(report, gateway.clients, gateway.contended), 2), fixed(gateway.cpuMsPerCommitted - bare.cpuMsPerCommitted, 2),
      ]];
    }),
  };
  const fanout: Table = {
    title: "Subscription fan-out (offeringUserChanged over graphql-ws, one instance, PostgreSQL; times from sending the REST transition)",
    header: ["subscribers", "documents", "viewers", "connected", "connect s", "CPU ms/connect", "last p50 ms", "last p99 ms", "median p50 ms", "missed", "RSS KB/sub", "heap KB/sub", "CPU ms/delivery", "note"],
    rows: report.fanout.map((f) => [String(f.subscribers), f.documents, `${f.viewers}${f.distinctRoles ? " (own roles)" : ""}`, String(f.connected), fixed(f.connectSeconds), fixed(f.serverCpuMsPerConnect, 2), fixed(f.lastP50Ms), fixed(f.lastP99Ms), fixed(f.medianP50Ms), String(f.missed), fixed(f.rssKbPerSubscriber), fixed(f.heapKbPerSubscriber), fixed(f.serverCpuMsPerDelivery, 3), f.problem ?? ""]),
  };
  const reader: Table = {
    title: "One subscriber that reads everything, under a write load the server cannot deliver as fast (offeringUserChanged with its record and event, staff, graphql-ws)",
    header: ["writers", "queue", "write s", "committed/s", "delivered/s while writing", "rest delivered in s", "catch-ups", "missing", "duplicates", "closed"],
    rows: report.reader.map((r) => [
      String(r.clients), String(r.queueMaxMessages), String(r.writeSeconds), fixed(r.committedPerSecond, 0), fixed(r.deliveredPerSecond, 0), fixed(r.drainSeconds, 1),
      String(r.catchUps), String(r.missing), String(r.duplicates), r.closed ?? "no",
    ]),
  };
  const agentMessages: Table = {
    title: "Site agents' messages (RabbitMQ, AMQP with confirms → web-STOMP consumer; times from sending the REST write)",
    header: ["one at a time", "p50 ms", "p99 ms", "max ms", "after answer p50 ms", "after answer p99 ms", "clients", "orders", "writes/s", "messages/s", "outbox backlog", "relay messages/s", "missed"],
    rows: report.agentMessages.map((a) => [
      String(a.sequential), fixed(a.p50Ms, 1), fixed(a.p99Ms, 1), fixed(a.maxMs, 1), fixed(a.afterAnswerP50Ms, 1), fixed(a.afterAnswerP99Ms, 1), String(a.clients), String(a.concurrentOrders),
      fixed(a.writesPerSecond, 0), fixed(a.messagesPerSecond, 0), String(a.backlog), fixed(a.backlogPerSecond, 0), String(a.missed),
    ]),
  };
  const scale = report.scale;
  const scaleTable: Table = {
    title: scale
      ? `Scale (PostgreSQL, one connection): small ${scale.small.offeringUsers} offering users / ${scale.small.events} events (seeded in ${fixed(scale.small.seedSeconds)} s, deep page ${scale.small.deepPage}) → big ${scale.big.offeringUsers} / ${scale.big.events} (grown in ${fixed(scale.big.seedSeconds)} s, deep page ${scale.big.deepPage}); aim: big p50 <= ${SCALE_TARGET_RATIO}× small`
      : "",
    header: ["request (page_size=10)", "viewer", "small p50 ms", "big p50 ms", "ratio", "small CPU ms/req", "big CPU ms/req", "matches small/big", "met"],
    rows: (scale?.rows ?? []).map((r) => [
      r.request, r.viewer, fixed(r.small.p50Ms, 1), fixed(r.big.p50Ms, 1), fixed(r.ratio, 2), fixed(r.small.serverCpuMsPerRequest, 1), fixed(r.big.serverCpuMsPerRequest, 1),
      `${r.small.resultCount}/${r.big.resultCount}`, r.pass ? "yes" : "NO",
    ]),
  };
  const memory: Table = {
    title: "Memory of npm start's server (RSS from /proc, MB, medians of starts side by side): 3 s after the banner, idle (30 s), 30 s after the reads",
    header: ["database", "command", "after start", "idle", "after reads", "idle each start", "CPU ms/read (first reads)"],
    rows: report.memory.map((m) => [
      m.database, `node ${m.command}`, fixed(m.startRssMb, 0), fixed(m.idleRssMb, 0), `${fixed(m.afterRequestsRssMb, 0)} (${m.requests})`, m.idleRunsMb.map((v) => fixed(v, 0)).join(", "), fixed(m.cpuMsPerRequest, 2),
    ]),
  };
  const readsTable: Table = {
    title: "Reads in the bench's process, PostgreSQL: the gateway's SQL compiler, Prisma's client, the raw driver (the compiler's statement, rows unshaped)",
    header: ["read", "way", "reads/s", "CPU µs/read", "CPU over raw"],
    rows: report.reads.map((r) => [r.read, r.way, fixed(r.readsPerSecond, 0), fixed(r.cpuUsPerRead, 0), fixed(r.overRaw, 2)]),
  };
  const soak: Table = {
    title: "Soak: npm start's server on the embedded database under paced mixed use (RSS from /proc every 10 s, MB)",
    header: ["minutes", "requests/s", "requests", "failures", "transitions", "peak RSS, minute 2", "peak RSS, last minute", "highest", "growth"],
    rows: report.soak
      ? [[String(report.soak.minutes), fixed(report.soak.requestsPerSecond, 1), String(report.soak.requests), String(report.soak.failures), String(report.soak.transitions), fixed(report.soak.rssAfterMinuteMb, 0), fixed(report.soak.rssEndMb, 0), fixed(report.soak.rssMaxMb, 0), fixed(report.soak.growth, 2)]]
      : [],
  };
  const aims: Table = {
    title: "Targets",
    header: ["target", "value", "aim", "met"],
    rows: targets(report).map((t) => [t.name, fixed(t.value, Math.abs(t.value) >= 100 ? 0 : 3), t.aim, t.met === undefined ? "-" : t.met ? "yes" : "NO"]),
  };
  return [ladder, costs, ...peerTables(report.peers), transitions, transitionCosts, fanout, reader, agentMessages, scaleTable, readsTable, memory, soak, aims].filter((t) => t.rows.length);
}

function plain(table: Table): string {
  const widths = table.header.map((h, i) => Math.max(h.length, ...table.rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
  return [table.title, line(table.header), "-".repeat(line(table.header).length), ...table.rows.map(line)].join("\n");
}

const markdown = (table: Table) =>
  [`### ${table.title}`, "", `| ${table.header.join(" | ")} |`, `|${table.header.map(() => "---").join("|")}|`, ...table.rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");

const notes = (report: Report) => [...report.skipped.map((s) => `SKIPPED: ${s}`), ...report.warnings.map((w) => `WARNING: ${w}`)];

export function formatText(report: Report): string {
  return [...tables(report).map(plain), ...notes(report)].join("\n\n");
}

export function formatMarkdown(report: Report, knobs: string): string {
  const machine = Object.entries(report.machine).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : v}`).join("; ");
  return [
    `## Benchmark ${report.startedAt}`,
    `Machine: ${machine}.`,
    ...tables(report).map(markdown),
    ...notes(report).map((n) => `- ${n}`),
    "### Settings",
    knobs,
    `Effective: \`${JSON.stringify(report.settings)}\``,
  ].join("\n\n");
}

/** `<dir>/<timestamp>.md` and `.json` (raw latencies left out), and `<dir>/latest.json`. */
export function writeResults(report: Report, knobs: string, dir: string) {
  fs.mkdirSync(dir, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, "-");
  const stripLatencies = (key: string, value: unknown) => (key === "latencies" ? undefined : value);
  const json = `${JSON.stringify({ ...report, targets: targets(report) }, stripLatencies, 2)}\n`;
  const files = { markdown: path.join(dir, `${stamp}.md`), json: path.join(dir, `${stamp}.json`), latest: path.join(dir, "latest.json") };
  fs.writeFileSync(files.markdown, `${formatMarkdown(report, knobs)}\n`);
  fs.writeFileSync(files.json, json);
  fs.writeFileSync(files.latest, json);
  return files;
}
