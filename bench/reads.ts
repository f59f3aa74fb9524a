/**
 * The reads scenario (issue 31): whether a well-kept library reads as cheaply as the gateway's own SQL compiler
 * (src/platform/reads/sql). In this process, on a scratch PostgreSQL database seeded as the others are, the same reads
 * three ways: the compiler (find.ts: one statement, rows shaped as Prisma's), Prisma's client with its pg adapter, and
 * the raw driver running the compiler's statement (rows unshaped: the floor). Each way runs `connections` loops for a
 * segment, in rounds that take the ways in turn; CPU of this process per read. The rule: were Prisma's client within
 * 1.3× of the raw driver, the compiler would go.
 */
import { performance } from "node:perf_hooks";
import { openDatabase } from "../src/platform/database/connect.ts";
import { applyMigrations } from "../src/platform/database/migrations.ts";
import { runText } from "../src/platform/database/lone-statement.ts";
import { compileFind, findMany } from "../src/platform/reads/sql/find.ts";
import type { Prisma } from "../src/generated/prisma/client.ts";
import { seedBenchData } from "./seed.ts";

export const LIBRARY_WITHIN = 1.3;
export const READ_WAYS = ["compiler", "prisma", "raw"] as const;
export type ReadWay = (typeof READ_WAYS)[number];

export interface ReadsRow {
  read: string;
  way: ReadWay;
  readsPerSecond: number;
  cpuUsPerRead: number;
  /** CPU per read over the raw driver's. */
  overRaw: number;
}

/** The frontend's page of offering users as the list service asks for it, and one offering user by id. */
const SELECTED = {
  id: true,
  username: true,
  state: true,
  created: true,
  user: { select: { username: true, email: true, firstName: true, lastName: true } },
  offering: { select: { name: true } },
} satisfies Prisma.OfferingUserSelect;
const PAGE: Prisma.OfferingUserFindManyArgs = { orderBy: [{ username: "asc" }, { created: "asc" }, { id: "asc" }], take: 11, select: SELECTED };
const recordOf = (id: string): Prisma.OfferingUserFindManyArgs => ({ where: { id }, select: SELECTED, take: 1 });

export async function runReads(databaseUrl: string, { connections, segmentSeconds, rounds }: { connections: number; segmentSeconds: number; rounds: number }, log: (message: string) => void): Promise<ReadsRow[]> {
  const database = await openDatabase({ databaseUrl, poolSize: connections });
  try {
    const db = database.prisma;
    await applyMigrations(database.sql, new URL("../prisma/migrations", import.meta.url).pathname);
    await seedBenchData(db);
    const [{ id }] = await findMany(db, "offeringUser", { take: 1, select: { id: true } });
    const reads = { "page of 10 with user and offering": PAGE, "one offering user with user and offering": recordOf(id) };
    const ways = (args: Prisma.OfferingUserFindManyArgs): Record<ReadWay, () => Promise<unknown>> => {
      const compiled = compileFind("offeringUser", args);
      if (!compiled) throw new Error("the compiler does not translate the bench's read");
      return {
        compiler: () => findMany(db, "offeringUser", args),
        prisma: () => db.offeringUser.findMany(args),
        raw: () => runText(db, compiled.text, compiled.values),
      };
    };
    const measured = new Map<string, { reads: number; cpuUs: number; seconds: number }>();
    for (let round = 0; round < rounds; round++) {
      for (const [read, args] of Object.entries(reads)) {
        const calls = ways(args);
        for (const way of round % 2 ? [...READ_WAYS].reverse() : READ_WAYS) {
          const { reads: count, cpuUs, seconds } = await loops(calls[way], connections, round === 0 ? segmentSeconds : 0.5, segmentSeconds);
          const sum = measured.get(`${read}|${way}`) ?? { reads: 0, cpuUs: 0, seconds: 0 };
          measured.set(`${read}|${way}`, { reads: sum.reads + count, cpuUs: sum.cpuUs + cpuUs, seconds: sum.seconds + seconds });
          log(`  reads round ${round + 1} ${read}, ${way}: ${(count / seconds).toFixed(0)} reads/s, ${(cpuUs / count).toFixed(0)} µs CPU per read`);
        }
      }
    }
    return Object.keys(reads).flatMap((read) => {
      const of = (way: ReadWay) => measured.get(`${read}|${way}`)!;
      const rawCpu = of("raw").cpuUs / of("raw").reads;
      return READ_WAYS.map((way) => ({ read, way, readsPerSecond: of(way).reads / of(way).seconds, cpuUsPerRead: of(way).cpuUs / of(way).reads, overRaw: of(way).cpuUs / of(way).reads / rawCpu }));
    });
  } finally {
    await database.close();
  }
}

/** `connections` closed loops of `call` for a warm-up, then for the measured seconds: reads, this process's CPU. */
async function loops(call: () => Promise<unknown>, connections: number, warmupSeconds: number, seconds: number) {
  const run = async (duration: number) => {
    const end = performance.now() + duration * 1000;
    let reads = 0;
    await Promise.all(Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        await call();
        reads++;
      }
    }));
    return reads;
  };
  await run(warmupSeconds);
  const [cpuBefore, started] = [process.cpuUsage(), performance.now()];
  const reads = await run(seconds);
  const cpu = process.cpuUsage(cpuBefore);
  return { reads, cpuUs: cpu.user + cpu.system, seconds: (performance.now() - started) / 1000 };
}
