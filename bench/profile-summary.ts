/**
 * `npm run bench:profile-summary -- <file.cpuprofile> [top]`: where a V8 CPU profile (node --cpu-prof, see
 * BENCH_CPU_PROFILE_DIR in bench/run.ts) spends its time — self time by function and by package/module,
 * and inclusive time of the heaviest functions. V8 samples wall time: a thread waiting for a core is charged to what it
 * runs next. For on-CPU time use BENCH_PERF_DIR and bench/perf-summary.ts.
 */
import fs from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** node_modules/<package> (scoped ones whole), else the project folder, else the V8 category. */
export function moduleOf(url: string): string {
  if (!url) return "(native/V8)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith("node:")) return url;
  const project = url.match(/\/work\/[^/]+\/(.+)$/);
  return project ? project[1].split("/").slice(0, 2).join("/") : url;
}

export const short = (url: string) => url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "~/").replace(/^\/work\/[^/]+\//, "");

export function summarise(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"}  ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

  const self = new Map<string, number>();
  const selfByModule = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id)!;
    total += delta;
    const name = node.callFrame.functionName;
    if (name === "(idle)" || name === "(program)" || name === "(garbage collector)") {
      if (name === "(idle)") idle += delta;
      self.set(name, (self.get(name) ?? 0) + delta);
      return;
    }
    self.set(key(node), (self.get(key(node)) ?? 0) + delta);
    const mod = moduleOf(node.callFrame.url);
    selfByModule.set(mod, (selfByModule.get(mod) ?? 0) + delta);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur)!);
      if (!seen.has(k)) {
        seen.add(k);
        inclusive.set(k, (inclusive.get(k) ?? 0) + delta);
      }
    }
  });
  const busy = total - idle;
  const table = (title: string, map: Map<string, number>, of: number) =>
    [
      title,
      ...[...map.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([k, us]) => `${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / of).toFixed(1).padStart(5)}%  ${k}`),
    ].join("\n");
  return [
    `profile ${(total / 1e6).toFixed(2)} s, busy ${(busy / 1e6).toFixed(2)} s (${((100 * busy) / total).toFixed(0)}%)`,
    table("\nself time by package/module (% of busy):", selfByModule, busy),
    table("\nself time by function (% of busy):", self, busy),
    table("\ninclusive time by function (% of busy):", inclusive, busy),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error("usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]");
    process.exit(2);
  }
  console.log(summarise(JSON.parse(fs.readFileSync(file, "utf8")), Number(top ?? 25)));
}
