import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";
import { bundle, startFlags } from "../scripts/build.ts";
import { PERF_NODE_FLAGS, type PerfRecording, perfAvailability, recordOnCpu } from "./perf-record.ts";
import type { ServerReady } from "./server.ts";
import { settings } from "./settings.ts";

export interface ServerProcess extends ServerReady {
  baseUrl: string;
  pid: number;
  /** CPU time (user + system, ms) the server process has used so far. */
  cpuMs(): Promise<number>;
  /** The server's memory (bytes) after a full garbage collection. */
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  kind: "app" | "bare" | "hono-prisma";
  databaseUrl?: string;
  seed?: boolean;
  /** Distinct viewers (provider managers with tokens) to seed before listening. */
  viewers?: number;
  /** Give each seeded viewer a role set of their own. */
  distinctRoles?: boolean;
  /** Directory for a V8 CPU profile of the server (written when it stops). */
  cpuProfileDir?: string;
  /** Directory for an on-CPU perf profile of the server (bench/perf-record.ts); BENCH_PERF_DIR when not given. */
  perfDir?: string;
  /** More environment for the server (the broker of the agent-messages scenario). */
  env?: Record<string, string>;
  /** Run the server under `taskset -c <cpu>` (path of taskset and the CPU), so it has that core to itself. */
  pinTo?: { taskset: string; cpu: number };
}

type Answers = { cpu?: NodeJS.CpuUsage; memory?: NodeJS.MemoryUsage };

const SERVER_ENTRY = new URL("./server.ts", import.meta.url).pathname;
const SERVER_BUNDLE_DIR = new URL("../.bench/server-dist/", import.meta.url).pathname;

let bundled: Promise<string> | undefined;
/** bench/server.ts bundled as `npm start` bundles src/main.ts, once per bench run. */
const serverBundle = () => (bundled ??= bundle(SERVER_ENTRY, SERVER_BUNDLE_DIR).then(() => path.join(SERVER_BUNDLE_DIR, "server.js")));

/**
 * What the server runs: the bundle with the start script's Node flags, as deployed; a profiled server runs the
 * sources through tsx instead, so that its samples name source files.
 */
async function serverCommand(profiled: boolean): Promise<{ entry: string; execArgv: string[] }> {
  if (profiled) return { entry: SERVER_ENTRY, execArgv: ["--import", "tsx"] };
  return { entry: await serverBundle(), execArgv: startFlags() };
}
const START_TIMEOUT_MS = 60_000;

let told = false;
/** perf when BENCH_PERF_DIR (or perfDir) asks for it and it runs here; else V8's wall-time profiler, said loudly once. */
function profiling(options: ServerOptions) {
  const perfDir = options.perfDir ?? settings.perfDir;
  const perf = perfDir ? perfAvailability() : undefined;
  if (perfDir && perf && "perf" in perf) {
    if (!told) console.error(`[bench] on-CPU profiles of the servers (perf record -e task-clock) go to ${perfDir}; read them with bench/perf-summary.ts`);
    told = true;
    return { perf: { tool: perf.perf, dir: perfDir }, cpuProfileDir: options.cpuProfileDir };
  }
  if (perfDir && perf && "unavailable" in perf && !told) {
    console.error(
      `[bench] NO ON-CPU PROFILES: ${perf.unavailable}. Writing V8 --cpu-prof profiles to ${perfDir} instead: ` +
        "they count wall time, so time a thread waits for a core is charged to whatever it runs next.",
    );
    told = true;
  }
  return { perf: undefined, cpuProfileDir: options.cpuProfileDir ?? perfDir };
}

/** Forks bench/server.ts and resolves once it listens. */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const { perf, cpuProfileDir } = profiling(options);
  const command = await serverCommand(Boolean(perf || cpuProfileDir));
  const execArgv = [...command.execArgv, ...(perf ? PERF_NODE_FLAGS : [])];
  if (cpuProfileDir) execArgv.push("--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`);
  // fork runs `execPath ...execArgv entry`: with taskset as execPath, taskset execs node in place (same pid, same IPC).
  const pinned = options.pinTo ? { execPath: options.pinTo.taskset, execArgv: ["-c", String(options.pinTo.cpu), process.execPath, ...execArgv] } : { execArgv };
  const child: ChildProcess = fork(command.entry, [], {
    ...pinned,
    env: {
      ...process.env,
      NODE_ENV: "production",
      BENCH_SERVER: options.kind,
      BENCH_DATABASE_URL: options.databaseUrl ?? "",
      BENCH_SEED: options.seed ? "1" : "0",
      BENCH_SEED_VIEWERS: String(options.viewers ?? 0),
      BENCH_SEED_VIEWER_ROLES: options.distinctRoles ? "distinct" : "shared",
      ...options.env,
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`bench server (${options.kind}) did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    const exitedEarly = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`bench server (${options.kind}) exited with code ${code} before it was ready`));
    };
    child.once("exit", exitedEarly);
    child.once("message", async (message: { ready: ServerReady }) => {
      const ask = <K extends "cpu" | "memory">(question: K) =>
        new Promise<NonNullable<Answers[K]>>((answer) => {
          const listener = (reply: Answers) => {
            if (!reply[question]) return;
            child.off("message", listener);
            answer(reply[question]!);
          };
          child.on("message", listener);
          child.send(question);
        });
      let recording: PerfRecording | undefined;
      const cpuMs = async () => {
        const cpu = await ask("cpu");
        recording?.mark();
        return (cpu.user + cpu.system) / 1000;
      };
      try {
        if (perf) recording = await recordOnCpu(perf.tool, child.pid!, perf.dir, options.kind);
      } catch (error) {
        child.kill("SIGKILL");
        return reject(error);
      } finally {
        clearTimeout(timer);
        child.off("exit", exitedEarly);
      }
      resolve({
        ...message.ready,
        baseUrl: `http://127.0.0.1:${message.ready.port}`,
        pid: child.pid!,
        cpuMs,
        memory: () => ask("memory"),
        async stop() {
          await recording?.stop();
          if (child.exitCode === null) child.send("stop");
          const timeout = setTimeout(() => child.kill("SIGKILL"), 10_000);
          await exited;
          clearTimeout(timeout);
          recording?.keepSymbols();
        },
      });
    });
  });
}
