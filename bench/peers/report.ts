import type { PeerRow } from "../peers.ts";
import type { PeerTarget } from "./pages.ts";

/** The peers scenario's tables and targets for bench/report.ts (same shapes as its own). */
interface PeerRatio {
  upper: PeerTarget;
  lower: PeerTarget;
  /** The aim for the throughput ratio (issue 32), if any. */
  aim?: number;
}
const RATIOS: PeerRatio[] = [
  { upper: "graphql", lower: "postgraphile", aim: 1.0 },
  { upper: "rest", lower: "bare", aim: 0.25 },
  { upper: "rest", lower: "drf", aim: 3 },
  { upper: "rest", lower: "postgraphile" },
  { upper: "graphql", lower: "drf" },
  { upper: "embedded", lower: "graphql", aim: 0.5 },
];

const fixed = (value: number | undefined, digits: number) => (value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : "-");
const cpuOf = (row: PeerRow) => row.result.serverCpuMsPerRequest ?? Number.NaN;
const totalCpuOf = (row: PeerRow) => cpuOf(row) + (row.databaseCpuMsPerRequest ?? Number.NaN);

/** The ratios whose both targets ran. */
function ratios(rows: PeerRow[]) {
  const rowOf = (target: PeerTarget) => rows.find((r) => r.target === target);
  return RATIOS.flatMap(({ upper, lower, aim }) => {
    const [a, b] = [rowOf(upper), rowOf(lower)];
    if (!a || !b) return [];
    const rps = a.result.rps / b.result.rps;
    const [cpu, totalCpu, service] = [cpuOf(a) / cpuOf(b), totalCpuOf(a) / totalCpuOf(b), a.serviceP50Ms / b.serviceP50Ms];
    return [{ name: `${upper} / ${lower}`, rps, cpu, totalCpu, service, aim, met: aim === undefined ? undefined : rps >= aim }];
  });
}

export function peerTables(rows: PeerRow[]) {
  const measured = {
    title: "Peers (PostgreSQL): the frontend's page of 10 offering users with their user and offering, and the total count, from the gateway and from what a user would deploy instead",
    header: ["target", "what", "req/s", "p50 ms", "p99 ms", "server CPU ms/req", "database CPU ms/req", "xacts/req", "1-conn p50 ms", "errors", "req/s per round"],
    rows: rows.map((r) => [
      r.target, r.label, fixed(r.result.rps, 0), fixed(r.result.p50Ms, 2), fixed(r.result.p99Ms, 2), fixed(cpuOf(r), 2), fixed(r.databaseCpuMsPerRequest, 2), fixed(r.transactionsPerRequest, 2), fixed(r.serviceP50Ms, 2), String(r.result.errors),
      r.roundRps.map((rps) => rps.toFixed(0)).join(", "),
    ]),
  };
  const compared = {
    title: "Peers compared (CPU: per request; server + database: the server's and its PostgreSQL backends')",
    header: ["ratio", "req/s ratio", "server CPU ratio", "server + database CPU ratio", "1-conn p50 ratio", "aim (req/s)", "met"],
    rows: ratios(rows).map((r) => [r.name, fixed(r.rps, 3), fixed(r.cpu, 2), fixed(r.totalCpu, 2), fixed(r.service, 2), r.aim === undefined ? "-" : `>= ${r.aim}`, r.met === undefined ? "-" : r.met ? "yes" : "NO"]),
  };
  return [measured, compared];
}

/** The aimed ratios, for the report's targets. */
export const peerTargets = (rows: PeerRow[]) =>
  ratios(rows)
    .filter((r) => r.aim !== undefined)
    .map((r) => ({ name: `peers: ${r.name} throughput, the page of 10`, value: r.rps, aim: `>= ${r.aim}`, met: r.met }));

/**
 * Why the embedded page falls short of its aim, when it does (issue 32 asks the bench to say): the CPU each mode spends
 * on a page, the embedded database's included, against what the PostgreSQL mode's server and backends spend together.
 */
export function embeddedShortfall(rows: PeerRow[]): string[] {
  const ratio = ratios(rows).find((r) => r.name === "embedded / graphql");
  const [embedded, postgres] = ["embedded", "graphql"].map((target) => rows.find((r) => r.target === target));
  if (!ratio || ratio.met || !embedded || !postgres) return [];
  const [own, split] = [cpuOf(embedded), totalCpuOf(postgres)];
  return [
    `peers: the embedded page reaches ${ratio.rps.toFixed(2)}× PostgreSQL mode's req/s (aim ${ratio.aim}) because it costs ${fixed(own, 2)} ms of CPU per page on the ` +
      `server's one core, its database included, where PostgreSQL mode costs ${fixed(split, 2)} ms in all (${fixed(cpuOf(postgres), 2)} ms in the server, the rest in ` +
      `PostgreSQL's processes, free to run on the other core): PGlite runs PostgreSQL compiled to WebAssembly in the server's thread, one statement at a time, ` +
      `and speaks to it through its JavaScript wire protocol, ${fixed(own / split, 1)}× the CPU of the native server and its driver for the same page ` +
      `(where it goes: npm run bench:profile, docs/testing.md)`,
  ];
}
