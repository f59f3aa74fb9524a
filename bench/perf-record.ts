/**
 * On-CPU profiles of the bench's servers with Linux perf (BENCH_PERF_DIR): the server runs with --perf-basic-prof
 * so perf can name JIT-compiled JavaScript, and `perf record -e task-clock` samples each of its threads only while
 * it runs on a core — unlike V8's --cpu-prof, whose samples also count the time a runnable thread waits for one.
 * bench/perf-summary.ts reads what this writes: <kind>-<pid>.perf.data, the JIT symbol map <kind>-<pid>.map, and
 * <kind>-<pid>.timeline: `mark <ns>` at every cpuMs() answer (pairs of them bracket the bench's measured segments)
 * and `map <ns> <bytes>`, the map's size every 100 ms. V8 reuses code addresses, so the map holds several entries
 * for one address; the sizes tell which entries were written by the time of a sample. Times are CLOCK_MONOTONIC,
 * the clock perf stamps samples with here (-k).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const PERF_NODE_FLAGS = ["--perf-basic-prof", "--interpreted-frames-native-stack"];
const SAMPLES_PER_SECOND = 999;
const ATTACH_TIMEOUT_MS = 5_000;
const STOP_TIMEOUT_MS = 30_000;
const MAP_POLL_MS = 100;

let probed: { perf: string } | { unavailable: string } | undefined;

/** Whether `perf record -e task-clock` works here (once per process); the reason when it does not. */
export function perfAvailability(): { perf: string } | { unavailable: string } {
  if (probed) return probed;
  const perf = process.env.BENCH_PERF ?? "perf";
  const scratch = path.join(os.tmpdir(), `bench-perf-probe-${process.pid}.data`);
  const probe = spawnSync(perf, ["record", "-q", "-e", "task-clock", "-g", "-o", scratch, "--", "true"], { encoding: "utf8" });
  fs.rmSync(scratch, { force: true });
  if (probe.error) probed = { unavailable: `${perf} cannot be run (${probe.error.message})` };
  else if (probe.status !== 0) {
    const paranoid = readText("/proc/sys/kernel/perf_event_paranoid");
    probed = { unavailable: `${perf} record failed (perf_event_paranoid ${paranoid ?? "?"}): ${probe.stderr.trim().split("\n").slice(0, 3).join(" ")}` };
  } else probed = { perf };
  return probed;
}

const readText = (file: string) => {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
};

export interface PerfRecording {
  /** Note a point in time (CLOCK_MONOTONIC, the clock perf is told to stamp samples with). */
  mark(): void;
  /** Stop perf (SIGINT: it writes perf.data and exits). Call before the server stops. */
  stop(): Promise<void>;
  /** Move the server's JIT symbol map next to perf.data (node writes /tmp/perf-<pid>.map until it exits). */
  keepSymbols(): void;
}

/** Attaches `perf record` to a running process; resolves once perf has started writing its data file. */
export async function recordOnCpu(perf: string, pid: number, dir: string, label: string): Promise<PerfRecording> {
  fs.mkdirSync(dir, { recursive: true });
  const base = path.join(dir, `${label}-${pid}`);
  const data = `${base}.perf.data`;
  const args = ["record", "-q", "-e", "task-clock", "-F", String(SAMPLES_PER_SECOND), "-g", "-k", "CLOCK_MONOTONIC", "-p", String(pid), "-o", data];
  const child: ChildProcess = spawn(perf, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const jitMap = `/tmp/perf-${pid}.map`;
  const timeline: string[] = [];
  const noteMapSize = () => timeline.push(`map ${process.hrtime.bigint()} ${fs.statSync(jitMap, { throwIfNoEntry: false })?.size ?? 0}`);
  await waitForFile(data, exited);
  noteMapSize();
  const poll = setInterval(noteMapSize, MAP_POLL_MS).unref();
  return {
    mark() {
      timeline.push(`mark ${process.hrtime.bigint()}`);
      noteMapSize();
    },
    async stop() {
      clearInterval(poll);
      noteMapSize();
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      const timeout = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      const code = await exited;
      clearTimeout(timeout);
      if (code !== 0 && code !== null) console.error(`[bench] perf record of ${label} (pid ${pid}) exited with ${code}: ${stderr.trim()}`);
      fs.writeFileSync(`${base}.timeline`, timeline.join("\n") + "\n");
    },
    keepSymbols() {
      if (!fs.existsSync(jitMap)) return;
      fs.copyFileSync(jitMap, `${base}.map`);
      fs.rmSync(jitMap);
    },
  };
}

async function waitForFile(file: string, exited: Promise<number | null>) {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + ATTACH_TIMEOUT_MS;
  while (!gone && Date.now() < deadline) {
    if ((fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (gone) throw new Error(`perf record exited before it attached (${file})`);
}
