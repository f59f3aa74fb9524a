import { spawn } from "node:child_process";
import { type PerfRecording, recordOnCpu } from "../perf-record.ts";
import { processTreeCpuMs } from "./process-cpu.ts";

/** What the peers scenario needs of a server under test: where it listens, its CPU time so far, and how to stop it. */
export interface PeerServer {
  baseUrl: string;
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

export interface ExternalServerOptions {
  /** Prefix of its output lines on the bench's stderr. */
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Finds the port it listens on in its output (stdout and stderr); group 1 is the port. */
  listening: RegExp;
  /** Run it under `taskset -c <cpu>` (taskset execs the command in place: same pid). */
  pinTo?: { taskset: string; cpu: number };
  /** Record it with `perf record` into `dir` once it listens (bench/perf-record.ts; a node server needs PERF_NODE_FLAGS). */
  perf?: { tool: string; dir: string };
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

/** Starts a server that is not a bench/server.ts child (gunicorn, PostGraphile): spawned, its CPU read from /proc. */
export async function startExternalServer(options: ExternalServerOptions): Promise<PeerServer> {
  const [command, args] = options.pinTo
    ? [options.pinTo.taskset, ["-c", String(options.pinTo.cpu), options.command, ...options.args]]
    : [options.command, options.args];
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  let ready = false;
  const port = await new Promise<number>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${options.name} ${why}: ${output.trim().split("\n").slice(-5).join(" | ")}`));
    };
    const timer = setTimeout(() => fail(`did not listen within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const hear = (chunk: Buffer) => {
      if (ready) return void process.stderr.write(chunk.toString().replace(/^(?=.)/gm, `[${options.name}] `));
      output += chunk.toString();
      const match = options.listening.exec(output);
      if (!match) return;
      ready = true;
      clearTimeout(timer);
      resolve(Number(match[1]));
    };
    child.stdout.on("data", hear);
    child.stderr.on("data", hear);
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code) => !ready && fail(`exited with code ${code}`));
  });
  let recording: PerfRecording | undefined;
  try {
    if (options.perf) recording = await recordOnCpu(options.perf.tool, child.pid!, options.perf.dir, options.name);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async cpuMs() {
      recording?.mark();
      return processTreeCpuMs(child.pid!);
    },
    async stop() {
      await recording?.stop();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timeout = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timeout);
      }
      recording?.keepSymbols();
    },
  };
}
