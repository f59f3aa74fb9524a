import http from "node:http";
import { performance } from "node:perf_hooks";

/** One request a worker sends; `settled` hears its status (e.g. to advance a state machine). */
export interface RequestSpec {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  settled?: (status: number) => void;
}

export interface LoadOptions {
  baseUrl: string;
  /** Concurrent keep-alive connections, each a closed loop (next request once the last one answered). */
  connections: number;
  warmupMs: number;
  durationMs: number;
  next: (worker: number) => RequestSpec;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  /** Responses by HTTP status ("0": no response). */
  statuses: Record<string, number>;
  /** CPU time of the server process per measured request (ms), when the caller measured it. */
  serverCpuMsPerRequest?: number;
  /** Raw latencies (ms) of the measured requests, to pool several runs; not written to the results file. */
  latencies: number[];
}

function send(agent: http.Agent, base: URL, spec: RequestSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = spec.body ? { ...spec.headers, "content-length": String(spec.body.length) } : spec.headers;
    const request = http.request(
      { agent, host: base.hostname, port: base.port, method: spec.method, path: spec.path, headers },
      (response) => {
        response.on("data", () => {});
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(spec.body);
  });
}

export const percentile = (sorted: Float64Array, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : Number.NaN;

/** Runs `connections` closed loops for warm-up plus duration; only requests started in the measured window count. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const base = new URL(options.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  try {
    return await runClosedLoops({
      ...options,
      call: async (index) => {
        const spec = options.next(index);
        const status = await send(agent, base, spec).catch(() => 0);
        spec.settled?.(status);
        return status;
      },
    });
  } finally {
    agent.destroy();
  }
}

/**
 * `connections` closed loops of `call` (each answers an HTTP-like status: 2xx counts as success), for warm-up plus
 * duration; only calls started in the measured window count.
 */
export async function runClosedLoops(options: Omit<LoadOptions, "baseUrl" | "next"> & { call: (worker: number) => Promise<number> }): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let lastDone = 0;
  const measureStart = performance.now() + options.warmupMs;
  const measureEnd = measureStart + options.durationMs;

  const worker = async (index: number) => {
    for (;;) {
      const started = performance.now();
      if (started >= measureEnd) return;
      const status = await options.call(index);
      const done = performance.now();
      if (started < measureStart) continue;
      latencies.push(done - started);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status < 200 || status >= 300) errors += 1;
      lastDone = Math.max(lastDone, done);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, i) => worker(i)));
  return summarise(latencies, errors, (lastDone - measureStart) / 1000, statuses);
}

function summarise(latencies: number[], errors: number, seconds: number, statuses: Record<string, number> = {}): LoadResult {
  const sorted = Float64Array.from(latencies).sort();
  const total = latencies.reduce((sum, ms) => sum + ms, 0);
  return {
    requests: latencies.length,
    errors,
    seconds,
    rps: latencies.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: total / Math.max(1, latencies.length),
    maxMs: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
    statuses,
    latencies,
  };
}

/** Several measured runs of one scenario as one: requests and seconds add up, percentiles over all samples. */
export function pool(runs: LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => runs.reduce((total, r) => total + pick(r), 0);
  const statuses: Record<string, number> = {};
  for (const run of runs) for (const [status, n] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const pooled = summarise(runs.flatMap((r) => r.latencies), sum((r) => r.errors), sum((r) => r.seconds), statuses);
  const cpuMs = sum((r) => (r.serverCpuMsPerRequest ?? Number.NaN) * r.requests);
  return Number.isFinite(cpuMs) ? { ...pooled, serverCpuMsPerRequest: cpuMs / pooled.requests } : pooled;
}

/**
 * One connection per server, requests strictly one after another, cycling through `targets`: each request's latency
 * is its service time, and the kinds share whatever else the machine is doing request by request. Latencies per target.
 */
export async function alternatingLatency(targets: Array<{ baseUrl: string; spec: RequestSpec }>, durationMs: number): Promise<LoadResult[]> {
  const agents = targets.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const bases = targets.map((t) => new URL(t.baseUrl));
  const samples = targets.map(() => [] as number[]);
  const errors = targets.map(() => 0);
  const start = performance.now();
  for (let i = 0; performance.now() - start < durationMs; i++) {
    const k = i % targets.length;
    const started = performance.now();
    const status = await send(agents[k], bases[k], targets[k].spec).catch(() => 0);
    samples[k].push(performance.now() - started);
    if (status < 200 || status >= 300) errors[k] += 1;
  }
  for (const agent of agents) agent.destroy();
  const seconds = (performance.now() - start) / 1000;
  return samples.map((latencies, k) => summarise(latencies, errors[k], seconds));
}

/** A single request with its parsed JSON body and headers, for checking a scenario before loading it. */
export async function fetchJson(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
