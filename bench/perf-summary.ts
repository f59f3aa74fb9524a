/**
 * `node --import tsx bench/perf-summary.ts <file.perf.data> [--segments 3,7] [--main-thread] [--top N]`: where an
 * on-CPU profile of a bench server (BENCH_PERF_DIR, bench/perf-record.ts) spends its time — on-CPU time by area
 * and by package, kernel time by syscall, self time by function and inclusive time of JavaScript functions.
 * Every sample counts only time a thread of the server ran on a core (perf task-clock).
 *
 * --segments picks measured segments: segment i spans the i-th pair of the server's cpuMs() answers (marks in the
 * .timeline file). In the ladder the gateway (app) server's segments are, per round: 0 one/graphql, 1 one/rest,
 * 2 list/graphql, 3 list/rest (round 2: 4–7). Without it the whole recording counts and the segments are listed.
 * A .cpuprofile (V8, wall time: perf was not available) is handed to bench/profile-summary.ts.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";
import { attribute, type Frame } from "./perf-areas.ts";
import { jitSymbols, readTimeline, segmentsOf } from "./perf-symbols.ts";
import { summarise } from "./profile-summary.ts";

interface Options {
  file: string;
  segments?: number[];
  mainThreadOnly: boolean;
  top: number;
}

interface Totals {
  total: number;
  samples: number;
  mainThread: number;
  byArea: Map<string, number>;
  byOwner: Map<string, number>;
  bySyscall: Map<string, number>;
  self: Map<string, number>;
  nativeLeaf: Map<string, number>;
  inclusive: Map<string, number>;
  /** On-CPU ns inside each segment (all samples, before any selection). */
  perSegment: number[];
}

const add = (map: Map<string, number>, key: string, ns: number) => map.set(key, (map.get(key) ?? 0) + ns);
const HEADER = /^(.*?)\s+(\d+)\/(\d+)\s+(\d+\.\d+):\s+(\d+)\s*$/;
const FRAME = /^\s+([0-9a-f]+)\s+(.*?)\s+\(([^()]*)\)$/;

async function collect(options: Options): Promise<Totals> {
  const perf = process.env.BENCH_PERF ?? "perf";
  const timeline = readTimeline(options.file);
  const segments = segmentsOf(timeline);
  const nameJit = jitSymbols(options.file, timeline);
  const chosen = options.segments?.map((i) => segments[i]).filter((s) => s !== undefined);
  const totals: Totals = {
    total: 0,
    samples: 0,
    mainThread: 0,
    byArea: new Map(),
    byOwner: new Map(),
    bySyscall: new Map(),
    self: new Map(),
    nativeLeaf: new Map(),
    inclusive: new Map(),
    perSegment: segments.map(() => 0),
  };
  const child = spawn(perf, ["script", "-i", options.file, "-F", "comm,pid,tid,time,period,ip,sym,dso", "--no-inline"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let sample: { main: boolean; time: number; ns: number; frames: Frame[] } | undefined;
  const finish = () => {
    if (!sample) return;
    const { time, ns, main, frames } = sample;
    sample = undefined;
    segments.forEach(([from, to], i) => {
      if (time >= from && time < to) totals.perSegment[i] += ns;
    });
    if (chosen && !chosen.some(([from, to]) => time >= from && time < to)) return;
    if (options.mainThreadOnly && !main) return;
    const who = attribute(frames);
    totals.total += ns;
    totals.samples += 1;
    if (main) totals.mainThread += ns;
    add(totals.byArea, who.area, ns);
    add(totals.byOwner, who.owner, ns);
    if (who.syscall) add(totals.bySyscall, who.syscall, ns);
    add(totals.self, who.fn, ns);
    if (who.nativeLeaf) add(totals.nativeLeaf, who.nativeLeaf, ns);
    for (const fn of who.jsFunctions) add(totals.inclusive, fn, ns);
  };
  for await (const line of readline.createInterface({ input: child.stdout, crlfDelay: Infinity })) {
    const frame = sample && FRAME.exec(line);
    if (frame && sample) {
      const ip = BigInt(`0x${frame[1]}`);
      const jit = frame[3].startsWith("/tmp/perf-") || frame[2] === "[unknown]";
      sample.frames.push({ ip, sym: (jit && nameJit(ip, sample.time)) || frame[2], dso: frame[3] });
      continue;
    }
    const header = HEADER.exec(line);
    if (!header) continue;
    finish();
    sample = { main: header[2] === header[3], time: Number(header[4]), ns: Number(header[5]), frames: [] };
  }
  finish();
  const code = await new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", resolve)));
  if (code !== 0) throw new Error(`perf script -i ${options.file} failed (${code}): ${stderr.trim().slice(0, 500)}`);
  return totals;
}

function report(options: Options, totals: Totals): string {
  const ms = (ns: number) => (ns / 1e6).toFixed(0).padStart(8);
  const pct = (ns: number) => ((100 * ns) / (totals.total || 1)).toFixed(1).padStart(5);
  const table = (title: string, map: Map<string, number>, top = options.top) =>
    [
      title,
      ...[...map.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([key, ns]) => `${ms(ns)} ms ${pct(ns)}%  ${key}`),
    ].join("\n");
  const segments = segmentsOf(readTimeline(options.file));
  const listed = segments.length
    ? `\nsegments (pairs of cpuMs() answers; pick with --segments):\n${segments
        .map(([from, to], i) => `  ${String(i).padStart(3)}  ${(to - from).toFixed(2)} s wall, ${(totals.perSegment[i] / 1e6).toFixed(0)} ms on CPU`)
        .join("\n")}`
    : "";
  const selection = [options.segments ? `segments ${options.segments.join(",")}` : "whole recording", options.mainThreadOnly ? "main thread only" : "all threads"];
  return [
    `${options.file}: ${selection.join(", ")}`,
    `on CPU ${(totals.total / 1e9).toFixed(2)} s in ${totals.samples} samples (perf task-clock); main thread ${ms(totals.mainThread).trim()} ms (${pct(totals.mainThread).trim()}%), other threads ${pct(totals.total - totals.mainThread).trim()}%`,
    listed,
    table("\non-CPU time by area (% of on-CPU):", totals.byArea),
    table("\non-CPU time by package (nearest JavaScript frame; native work without one by kind):", totals.byOwner),
    table("\nkernel time by syscall:", totals.bySyscall, 12),
    table("\nself time by function (nearest JavaScript frame; kernel by syscall; GC, compiler):", totals.self),
    table("\nnative leaf frames (builtins, ICs, V8 runtime, libc; counted above in their JavaScript caller):", totals.nativeLeaf, 12),
    table("\ninclusive time by JavaScript function:", totals.inclusive),
  ].join("\n");
}

function parseArguments(argv: string[]): Options | undefined {
  const options: Options = { file: "", mainThreadOnly: false, top: 25 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--segments") options.segments = argv[++i]?.split(",").map(Number).filter(Number.isInteger);
    else if (arg === "--top") options.top = Number(argv[++i]) || 25;
    else if (arg === "--main-thread") options.mainThreadOnly = true;
    else if (!options.file) options.file = arg;
    else return undefined;
  }
  return options.file ? options : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = parseArguments(process.argv.slice(2));
  if (!options) {
    console.error("usage: node --import tsx bench/perf-summary.ts <file.perf.data | file.cpuprofile> [--segments 3,7] [--main-thread] [--top N]");
    process.exit(2);
  }
  if (options.file.endsWith(".cpuprofile")) {
    console.log("V8 CPU profile: WALL TIME (a thread waiting for a core is charged to what it runs next), not on-CPU time\n");
    console.log(summarise(JSON.parse(fs.readFileSync(options.file, "utf8")), options.top));
  } else {
    console.log(report(options, await collect(options)));
  }
}
