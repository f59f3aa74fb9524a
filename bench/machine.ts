import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

/** Cores the bench uses when it pins: the server under test gets one, the load (and subscriber clients) the other. */
export const SERVER_CPU = 0;
export const LOAD_CPU = 1;

/** taskset's path when pinning is possible (Linux with util-linux and at least two CPUs). */
export function findTaskset(): string | undefined {
  if (os.availableParallelism() < 2) return undefined;
  return ["/usr/bin/taskset", "/bin/taskset"].find((path) => fs.existsSync(path));
}

/** Pins this process, every thread of it, to `cpu`. */
export function pinThisProcess(taskset: string, cpu: number) {
  execFileSync(taskset, ["-a", "-p", "-c", String(cpu), String(process.pid)], { stdio: "ignore" });
}

/** The soft limit of open files child processes inherit (`ulimit -n`), or undefined when no shell can tell. */
export function openFileLimit(): number | undefined {
  try {
    const text = execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim();
    return text === "unlimited" ? Number.POSITIVE_INFINITY : Number(text);
  } catch {
    return undefined;
  }
}

export const loadAverage = () => os.loadavg().map((l) => Number(l.toFixed(2)));

export const machineDescription = () => ({
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  node: process.version,
  memoryGb: Number((os.totalmem() / 2 ** 30).toFixed(1)),
});
