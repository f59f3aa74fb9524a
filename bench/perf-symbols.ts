/**
 * Reading what bench/perf-record.ts keeps next to perf.data: the timeline (segment marks, JIT map sizes) and the
 * JIT symbol map. perf itself takes the first map entry that covers an address, but V8 reuses code addresses, so a
 * sample of `respond` can be named after a module wrapper that lived there at startup. Here a frame is named by the
 * last entry covering its address among those written by the time of the sample (to within one map-size poll).
 */
import fs from "node:fs";

/** CLOCK_MONOTONIC seconds, as `perf script` prints sample times. */
export interface Timeline {
  marks: number[];
  /** [time, bytes of the map written by then], in time order. */
  mapSizes: Array<[number, number]>;
}

const seconds = (ns: string) => Number(BigInt(ns) / 1000n) / 1e6;
export const sibling = (dataFile: string, extension: string) => dataFile.replace(/\.perf\.data$/, extension);

export function readTimeline(dataFile: string): Timeline {
  const file = sibling(dataFile, ".timeline");
  const timeline: Timeline = { marks: [], mapSizes: [] };
  if (!fs.existsSync(file)) return timeline;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const [kind, ns, bytes] = line.split(" ");
    if (kind === "mark") timeline.marks.push(seconds(ns));
    else if (kind === "map") timeline.mapSizes.push([seconds(ns), Number(bytes)]);
  }
  return timeline;
}

/** Segment i spans the i-th pair of marks. */
export const segmentsOf = (timeline: Timeline): Array<[number, number]> =>
  Array.from({ length: Math.floor(timeline.marks.length / 2) }, (_, i): [number, number] => [timeline.marks[2 * i], timeline.marks[2 * i + 1]]);

interface Entry {
  start: bigint;
  end: bigint;
  /** Byte offset of the entry's line: entries further on were written later. */
  offset: number;
  name: string;
}

/** Names JIT frames by address and sample time; undefined when the map was not kept or does not cover the address. */
export function jitSymbols(dataFile: string, timeline: Timeline): (ip: bigint, time: number) => string | undefined {
  const mapFile = sibling(dataFile, ".map");
  if (!fs.existsSync(mapFile)) return () => undefined;
  const entries: Entry[] = [];
  let offset = 0;
  for (const line of fs.readFileSync(mapFile, "utf8").split("\n")) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (match) {
      const start = BigInt(`0x${match[1]}`);
      entries.push({ start, end: start + BigInt(`0x${match[2]}`), offset, name: match[3] });
    }
    offset += Buffer.byteLength(line) + 1;
  }
  entries.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.offset - b.offset));
  const longest = entries.reduce((max, e) => (e.end - e.start > max ? e.end - e.start : max), 0n);
  const covering = new Map<bigint, Entry[]>();
  const candidates = (ip: bigint) => {
    let found = covering.get(ip);
    if (found) return found;
    let [low, high] = [0, entries.length];
    while (low < high) {
      const mid = (low + high) >> 1;
      if (entries[mid].start <= ip) low = mid + 1;
      else high = mid;
    }
    found = [];
    for (let i = low - 1; i >= 0 && entries[i].start + longest > ip; i--) if (entries[i].end > ip) found.push(entries[i]);
    found.sort((a, b) => a.offset - b.offset);
    covering.set(ip, found);
    return found;
  };
  const writtenBy = (time: number) => {
    let [low, high] = [0, timeline.mapSizes.length];
    while (low < high) {
      const mid = (low + high) >> 1;
      if (timeline.mapSizes[mid][0] < time) low = mid + 1;
      else high = mid;
    }
    return low < timeline.mapSizes.length ? timeline.mapSizes[low][1] : Infinity;
  };
  return (ip, time) => {
    const found = candidates(ip);
    if (found.length === 0) return undefined;
    const limit = writtenBy(time);
    return (found.findLast((e) => e.offset < limit) ?? found[0]).name;
  };
}
