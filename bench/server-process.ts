import { type ChildProcess, fork } from "node:child_process";
import type { ServerReady } from "./server.ts";

export interface ServerProcess extends ServerReady {
  baseUrl: string;
  pid: number;
  /** CPU time (user + system, ms) the server process has used so far. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  kind: "app" | "bare";
  databaseUrl?: string;
  seed?: boolean;
  /** Directory for a V8 CPU profile of the server (written when it stops). */
  cpuProfileDir?: string;
}

const SERVER_ENTRY = new URL("./server.ts", import.meta.url).pathname;
const START_TIMEOUT_MS = 60_000;

/** Forks bench/server.ts and resolves once it listens. */
export function startServer(options: ServerOptions): Promise<ServerProcess> {
  const execArgv = ["--import", "tsx"];
  if (options.cpuProfileDir) execArgv.push("--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`);
  const child: ChildProcess = fork(SERVER_ENTRY, [], {
    execArgv,
    env: {
      ...process.env,
      NODE_ENV: "production",
      BENCH_SERVER: options.kind,
      BENCH_DATABASE_URL: options.databaseUrl ?? "",
      BENCH_SEED: options.seed ? "1" : "0",
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
    child.once("message", (message: { ready: ServerReady }) => {
      const cpuMs = () =>
        new Promise<number>((answer) => {
          const listener = (reply: { cpu?: NodeJS.CpuUsage }) => {
            if (!reply.cpu) return;
            child.off("message", listener);
            answer((reply.cpu.user + reply.cpu.system) / 1000);
          };
          child.on("message", listener);
          child.send("cpu");
        });
      clearTimeout(timer);
      child.off("exit", exitedEarly);
      resolve({
        ...message.ready,
        baseUrl: `http://127.0.0.1:${message.ready.port}`,
        pid: child.pid!,
        cpuMs,
        async stop() {
          if (child.exitCode === null) child.send("stop");
          const timeout = setTimeout(() => child.kill("SIGKILL"), 10_000);
          await exited;
          clearTimeout(timeout);
        },
      });
    });
  });
}
