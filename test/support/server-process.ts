import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";
import { startFlags } from "../../scripts/build.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const START_TIMEOUT_MS = 90_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The gateway (src/main.ts, bundled as `npm start` bundles it into dist/) running as a child process. */
export interface GatewayProcess {
  baseUrl: string;
  wsUrl: string;
  port: number;
  pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  exited: Promise<Exit>;
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<Exit>;
}

const running = new Set<ChildProcess>();

/** What `testDefaults` adds to the environment: no demo data, no rate limit, warnings only. */
const TEST_DEFAULTS = { SEED_DEMO: "false", LOG_LEVEL: "warn", RATE_LIMIT_MUTATIONS: "0" };

/** `npm start`'s command on the bundle the global setup built once per run (through tsx, each start transformed the sources again). */
export const bundledStart = () => [...startFlags(), inject("gatewayBundle")];

/**
 * Starts the gateway with `env` on top of a test default (random port on 127.0.0.1, no Redis and, unless
 * `testDefaults` is false, `TEST_DEFAULTS`: with it false the gateway keeps `npm start`'s own defaults);
 * resolves once it prints its banner. Give `GATEWAY_DATA_DIR` (embedded database) or `DATABASE_URL`.
 * `nodeArgs`: what node runs (`bundledStart()` unless told, e.g. dist/ as `npm start` built it).
 */
export async function startGateway(env: Record<string, string>, { testDefaults = true, nodeArgs = bundledStart() } = {}): Promise<GatewayProcess> {
  const { child, exited, output } = spawnGateway(env, { testDefaults, nodeArgs });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway printed no banner within ${START_TIMEOUT_MS} ms:\n${output()}`)), START_TIMEOUT_MS);
    const check = () => {
      const listening = /REST:\s+http:\/\/[^:]+:(\d+)\/api\//.exec(output());
      if (!listening) return;
      clearTimeout(timer);
      resolve(Number(listening[1]));
    };
    child.stdout!.on("data", check);
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited (${exit.code ?? exit.signal}) before listening:\n${output()}`));
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    port,
    pid: child.pid!,
    output,
    exited,
    signal: (signal) => void child.kill(signal),
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** The gateway's process with `startGateway`'s environment, whatever it does: `output()` is what it printed so far. */
export function spawnGateway(env: Record<string, string>, { testDefaults = true, nodeArgs = bundledStart() } = {}) {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: "",
      REDIS_URL: "",
      ...(testDefaults ? TEST_DEFAULTS : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, exited, output: () => output };
}

/** For afterAll: kills what a failed test left running. */
export function killGateways() {
  for (const child of running) child.kill("SIGKILL");
}
