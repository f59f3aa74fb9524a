import fs from "node:fs";
import path from "node:path";
import type { LoadResult } from "./load.ts";

export type Database = "postgresql" | "pglite";
export type Scenario = "rest-list" | "graphql-list" | "bare-list" | "rest-transitions";

export interface Row {
  scenario: Scenario;
  database: Database;
  result: LoadResult;
  /** Throughput of each alternating round, to show how stable the pooled figure is. */
  roundRps?: number[];
  note?: string;
}

/** Unloaded (one connection, alternating requests) median latency of REST and GraphQL. */
export interface ServiceTime {
  database: Database;
  restP50Ms: number;
  graphqlP50Ms: number;
  samples: number;
}

export interface Report {
  startedAt: string;
  machine: Record<string, unknown>;
  settings: Record<string, unknown>;
  skipped: string[];
  /** E.g. other work on the machine while the bench ran. */
  warnings: string[];
  rows: Row[];
  serviceTimes: ServiceTime[];
  ratios: Record<string, number>;
}

const LABELS: Record<Scenario, string> = {
  "rest-list": "REST    GET offering-users (10)",
  "graphql-list": "GraphQL offeringUsers(first: 10)",
  "bare-list": "bare    node:http + pg (floor)",
  "rest-transitions": "REST    transitions (tx + event)",
};

const find = (rows: Row[], scenario: Scenario, database: Database) =>
  rows.find((r) => r.scenario === scenario && r.database === database)?.result;

/** Throughput ratios: REST/GraphQL per database (aim ≥ 0.9), and each against the bare floor on PostgreSQL. */
export function computeRatios(rows: Row[], serviceTimes: ServiceTime[]): Record<string, number> {
  const ratios: Record<string, number> = {};
  for (const t of serviceTimes) ratios[`${t.database}.rest_over_graphql_p50_one_connection`] = t.restP50Ms / t.graphqlP50Ms;
  for (const db of ["postgresql", "pglite"] as const) {
    const rest = find(rows, "rest-list", db);
    const gql = find(rows, "graphql-list", db);
    if (rest && gql) {
      ratios[`${db}.rest_over_graphql_rps`] = rest.rps / gql.rps;
      ratios[`${db}.rest_over_graphql_p50`] = rest.p50Ms / gql.p50Ms;
      if (rest.serverCpuMsPerRequest && gql.serverCpuMsPerRequest) {
        ratios[`${db}.rest_over_graphql_server_cpu`] = rest.serverCpuMsPerRequest / gql.serverCpuMsPerRequest;
      }
    }
  }
  const bare = find(rows, "bare-list", "postgresql");
  for (const db of ["postgresql", "pglite"] as const) {
    const rest = rows.find((r) => r.scenario === "rest-list" && r.database === db)?.roundRps ?? [];
    const gql = rows.find((r) => r.scenario === "graphql-list" && r.database === db)?.roundRps ?? [];
    const perRound = rest.map((rps, i) => rps / gql[i]).filter(Number.isFinite);
    if (perRound.length > 1) {
      ratios[`${db}.rest_over_graphql_rps_round_min`] = Math.min(...perRound);
      ratios[`${db}.rest_over_graphql_rps_round_max`] = Math.max(...perRound);
    }
  }
  for (const scenario of ["rest-list", "graphql-list"] as const) {
    const result = find(rows, scenario, "postgresql");
    if (bare && result) ratios[`postgresql.${scenario.split("-")[0]}_over_floor_rps`] = result.rps / bare.rps;
  }
  const txPg = find(rows, "rest-transitions", "postgresql");
  const txLite = find(rows, "rest-transitions", "pglite");
  if (txPg && txLite) ratios["transitions.postgresql_over_pglite"] = txPg.rps / txLite.rps;
  return ratios;
}

const pad = (text: string, width: number, right = false) => (right ? text.padStart(width) : text.padEnd(width));
const num = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

export function formatTable(report: Report): string {
  const header = [pad("scenario", 34), pad("database", 10), pad("req/s", 9, true), pad("p50 ms", 8, true), pad("p99 ms", 8, true), pad("cpu ms/req", 10, true), pad("requests", 9, true), pad("errors", 7, true)];
  const lines = [header.join("  "), "-".repeat(header.join("  ").length)];
  for (const row of report.rows) {
    const r = row.result;
    lines.push(
      [pad(LABELS[row.scenario], 34), pad(row.database, 10), pad(num(r.rps, 0), 9, true), pad(num(r.p50Ms, 2), 8, true), pad(num(r.p99Ms, 2), 8, true), pad(num(r.serverCpuMsPerRequest ?? Number.NaN, 2), 10, true), pad(String(r.requests), 9, true), pad(String(r.errors), 7, true)].join("  "),
    );
  }
  for (const t of report.serviceTimes) {
    lines.push(`one connection, alternating, ${pad(t.database, 10)}  REST p50 ${num(t.restP50Ms, 2)} ms   GraphQL p50 ${num(t.graphqlP50Ms, 2)} ms   (${t.samples} each)`);
  }
  lines.push("");
  const ratio = (key: string, text: string) => {
    const value = report.ratios[key];
    if (value !== undefined) lines.push(`${pad(text, 52)} ${value.toFixed(3)}`);
  };
  const range = (db: string) => {
    const [min, max] = [report.ratios[`${db}.rest_over_graphql_rps_round_min`], report.ratios[`${db}.rest_over_graphql_rps_round_max`]];
    if (min !== undefined) lines.push(`${pad("  same, per alternating round (lowest .. highest)", 52)} ${min.toFixed(3)} .. ${max.toFixed(3)}`);
  };
  ratio("postgresql.rest_over_graphql_rps", "REST / GraphQL throughput, PostgreSQL (aim >= 0.90)");
  ratio("postgresql.rest_over_graphql_p50", "REST / GraphQL p50 latency, PostgreSQL");
  ratio("postgresql.rest_over_graphql_server_cpu", "REST / GraphQL server CPU per request, PostgreSQL");
  ratio("postgresql.rest_over_graphql_p50_one_connection", "REST / GraphQL p50, one connection, PostgreSQL");
  range("postgresql");
  ratio("pglite.rest_over_graphql_rps", "REST / GraphQL throughput, PGlite (aim >= 0.90)");
  range("pglite");
  ratio("pglite.rest_over_graphql_p50", "REST / GraphQL p50 latency, PGlite");
  ratio("pglite.rest_over_graphql_server_cpu", "REST / GraphQL server CPU per request, PGlite");
  ratio("pglite.rest_over_graphql_p50_one_connection", "REST / GraphQL p50, one connection, PGlite");
  ratio("postgresql.rest_over_floor_rps", "REST / bare floor throughput, PostgreSQL");
  ratio("postgresql.graphql_over_floor_rps", "GraphQL / bare floor throughput, PostgreSQL");
  ratio("transitions.postgresql_over_pglite", "Transitions/s PostgreSQL / PGlite");
  for (const reason of report.skipped) lines.push(`SKIPPED: ${reason}`);
  for (const warning of report.warnings) lines.push(`WARNING: ${warning}`);
  return lines.join("\n");
}

const round = (value: number, digits: number) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

/** Writes the figures (rounded, so the file stays small and diffable) to bench/results/latest.json. */
export function writeJson(report: Report, file: string) {
  const compact = {
    ...report,
    rows: report.rows.map((row) => ({
      scenario: row.scenario,
      database: row.database,
      rps: round(row.result.rps, 1),
      p50_ms: round(row.result.p50Ms, 3),
      p99_ms: round(row.result.p99Ms, 3),
      mean_ms: round(row.result.meanMs, 3),
      server_cpu_ms_per_request: round(row.result.serverCpuMsPerRequest ?? Number.NaN, 3),
      max_ms: round(row.result.maxMs, 3),
      requests: row.result.requests,
      errors: row.result.errors,
      seconds: round(row.result.seconds, 3),
      ...(row.roundRps && row.roundRps.length > 1 ? { round_rps: row.roundRps.map((v) => round(v, 1)) } : {}),
      ...(row.note ? { note: row.note } : {}),
    })),
    serviceTimes: report.serviceTimes.map((t) => ({ ...t, restP50Ms: round(t.restP50Ms, 3), graphqlP50Ms: round(t.graphqlP50Ms, 3) })),
    ratios: Object.fromEntries(Object.entries(report.ratios).map(([k, v]) => [k, round(v, 3)])),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(compact, null, 2)}\n`);
}
