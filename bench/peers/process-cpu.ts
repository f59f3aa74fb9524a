import { execFileSync } from "node:child_process";
import fs from "node:fs";

/**
 * CPU time of processes the bench did not fork with IPC (gunicorn and its worker, PostGraphile's node, PostgreSQL's
 * backends), read from /proc: utime + stime of every thread, in clock ticks (usually 10 ms each).
 */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
  } catch {
    return 100;
  }
})();

interface ProcessStat {
  pid: number;
  ppid: number;
  cpuMs: number;
}

function statOf(pid: number): ProcessStat | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // After "pid (comm) ", fields start at field 3 (state): ppid is field 4, utime 14, stime 15.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

const pids = () => fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number);

/** Whether /proc can tell CPU time here (Linux). */
export const procAvailable = () => fs.existsSync("/proc/self/stat");

/** CPU ms used so far by `root` and every process below it that is still running (gunicorn's master and worker). */
export function processTreeCpuMs(root: number): number {
  const stats = pids().map(statOf).filter((s) => s !== undefined);
  const children = new Map<number, ProcessStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  let total = 0;
  const visit = (stat: ProcessStat | undefined) => {
    if (!stat) return;
    total += stat.cpuMs;
    for (const child of children.get(stat.pid) ?? []) visit(child);
  };
  visit(stats.find((s) => s.pid === root));
  return total;
}

/** CPU ms so far of each PostgreSQL backend connected to `database` (its title: "postgres: … <user> <database> <host> …"). */
export function databaseBackendsCpuMs(database: string): Map<number, number> {
  const backends = new Map<number, number>();
  for (const pid of pids()) {
    let title: string;
    try {
      title = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    } catch {
      continue;
    }
    if (!title.startsWith("postgres: ") || !title.includes(` ${database} `)) continue;
    const stat = statOf(pid);
    if (stat) backends.set(pid, stat.cpuMs);
  }
  return backends;
}

/** CPU the backends used between two readings (a backend that exited in between is lost; the pools keep theirs). */
export const backendsCpuMsBetween = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

/** `work`'s outcome and the CPU ms the backends connected to `database` used meanwhile (NaN without /proc or a database). */
export async function withDatabaseCpu<T>(database: string | undefined, work: () => Promise<T>): Promise<{ outcome: T; databaseCpuMs: number }> {
  const before = database && procAvailable() ? databaseBackendsCpuMs(database) : undefined;
  const outcome = await work();
  return { outcome, databaseCpuMs: before && database ? backendsCpuMsBetween(before, databaseBackendsCpuMs(database)) : Number.NaN };
}

/** The database's name in a connection URL. */
export const databaseNameOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));
