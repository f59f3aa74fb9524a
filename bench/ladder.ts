import { alternatingLatency, type LoadResult, pool, runLoad, type RequestSpec } from "./load.ts";
import { LAYERS, type Layer, ladderRequests, type Read, READS } from "./scenarios.ts";
import type { ServerProcess } from "./server-process.ts";
import type { Settings } from "./settings.ts";

/**
 * The ladder: each read at each layer (bare node:http + pg → Hono + Prisma → POST /graphql → REST adapter), in
 * rounds that take the layers in turn, so that load from anything else on the machine falls on all of them alike.
 */
export interface LadderRow {
  layer: Layer;
  read: Read;
  result: LoadResult;
  /** Throughput of each round, to show how stable the pooled figure is. */
  roundRps: number[];
  /** Median latency with one connection and nothing else running: the layer's service time. */
  serviceP50Ms: number;
}

const RE_WARMUP_SECONDS = 0.5;

/** Closed-loop load cycling through `specs`, with the server's CPU time per measured request. */
async function measureSegment(server: ServerProcess, specs: RequestSpec[], connections: number, warmupSeconds: number, seconds: number) {
  let turn = 0;
  const run = (durationSeconds: number) =>
    runLoad({ baseUrl: server.baseUrl, connections, warmupMs: 0, durationMs: durationSeconds * 1000, next: () => specs[turn++ % specs.length] });
  if (warmupSeconds > 0) await run(warmupSeconds);
  const cpuBefore = await server.cpuMs();
  const measured = await run(seconds);
  return { ...measured, serverCpuMsPerRequest: ((await server.cpuMs()) - cpuBefore) / measured.requests };
}

export async function runLadder(
  servers: Record<Layer, ServerProcess>,
  token: string,
  uuids: string[],
  settings: Settings,
  log: (message: string) => void,
): Promise<LadderRow[]> {
  const specs = (layer: Layer, read: Read) => ladderRequests(layer, read, token, uuids);
  const runs = new Map<string, LoadResult[]>();
  const key = (layer: Layer, read: Read) => `${layer}/${read}`;
  log(`ladder: ${settings.rounds} round(s) × ${LAYERS.length} layers × ${READS.length} reads, ${settings.segmentSeconds} s each, ${settings.connections} connections`);
  for (let round = 0; round < settings.rounds; round++) {
    for (const read of READS) {
      for (const layer of LAYERS) {
        const warmup = round === 0 ? settings.warmupSeconds : RE_WARMUP_SECONDS;
        const result = await measureSegment(servers[layer], specs(layer, read), settings.connections, warmup, settings.segmentSeconds);
        log(
          `  round ${round + 1} ${read.padEnd(4)} ${layer.padEnd(11)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(2)} ms  ` +
            `p99 ${result.p99Ms.toFixed(2)} ms  cpu ${result.serverCpuMsPerRequest.toFixed(2)} ms/req  ${result.errors} errors`,
        );
        runs.set(key(layer, read), [...(runs.get(key(layer, read)) ?? []), result]);
      }
    }
  }
  const serviceP50 = new Map<string, number>();
  for (const read of READS) {
    const targets = LAYERS.map((layer) => ({ baseUrl: servers[layer].baseUrl, spec: specs(layer, read)[0] }));
    const alone = await alternatingLatency(targets, settings.serviceTimeSeconds * 1000);
    LAYERS.forEach((layer, i) => serviceP50.set(key(layer, read), alone[i].p50Ms));
    log(`  one connection, ${read}: ${LAYERS.map((layer, i) => `${layer} ${alone[i].p50Ms.toFixed(2)} ms`).join(", ")}`);
  }
  return READS.flatMap((read) =>
    LAYERS.map((layer) => {
      const measured = runs.get(key(layer, read))!;
      return { layer, read, result: pool(measured), roundRps: measured.map((r) => r.rps), serviceP50Ms: serviceP50.get(key(layer, read))! };
    }),
  );
}
