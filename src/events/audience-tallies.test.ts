import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { countSql } from "../../test/support/sql-counter.ts";
import type { EventScopeType } from "../generated/prisma/client.ts";
import { foldTallies, totalsSql, unfoldedRowsSql } from "../platform/database/tallies.ts";
import { EVENT_AUDIENCE_TALLIES, EVENT_USER_TALLIES } from "./tallies.ts";

/**
 * A viewer's X-Result-Count of events comes from the audience tallies (the customers, projects and offerings among an
 * event's scopes) and their own user tallies when the filter is about types alone; the triggers keep both right
 * through every change of an event and its scope rows.
 */
const TYPES = ["role_granted", "token_created", "marketplace_offering_user_updated"];
const VIEWERS = ["providerOwner", "offeringManager", "projectMember", "projectAdmin", "unrelated", "support"] as const;
const FILTERS = ["", "event_type=role_granted", "event_type=role_granted&event_type=token_created", "feature=permissions", "event_type=nothing_like_it"];
let t: TestApp;

type Scope = { scopeType: EventScopeType; scopeId: string };

/** A deterministic spread of scope sets: one, several or no roles' scopes, with and without users, and other scopes. */
function scopesOf(i: number): Scope[] {
  const w = t.world;
  const pool: Scope[] = [
    { scopeType: "CUSTOMER", scopeId: w.provider.id },
    { scopeType: "OFFERING", scopeId: w.offering.id },
    { scopeType: "CUSTOMER", scopeId: w.consumer.id },
    { scopeType: "PROJECT", scopeId: w.project.id },
    { scopeType: "USER", scopeId: w.users.projectMember.id },
    { scopeType: "USER", scopeId: w.users.unrelated.id },
    { scopeType: "USER", scopeId: w.users.providerOwner.id },
    { scopeType: "OFFERING_USER", scopeId: randomUUID() },
  ];
  return pool.filter((_, bit) => ((i * 37 + 11) >> bit) & 1 && (i + bit) % 3 !== 0);
}

beforeAll(async () => {
  t = await startTestApp();
  for (let i = 0; i < 60; i++) {
    await t.app.deps.db.event.create({ data: { eventType: TYPES[i % 3], message: `event ${i}`, scopes: { create: scopesOf(i) } } });
  }
});
afterAll(() => t.close());

async function countsAgree() {
  for (const viewer of VIEWERS) {
    for (const filter of FILTERS) {
      const res = await t.http("GET", `/api/events/?page_size=300&${filter}`, { token: t.world.tokens[viewer] });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-result-count"), `${viewer} ?${filter}`).toBe(String(res.body.length));
    }
  }
}

const AUDIENCE_TYPES = new Set(["CUSTOMER", "PROJECT", "OFFERING"]);

/** The tallies' totals as the events say they should be, computed here from the events and their scope rows. */
async function expectedTotals() {
  const events = await t.app.deps.db.event.findMany({ select: { eventType: true, scopes: true } });
  const audiences = new Map<string, number>();
  const users = new Map<string, number>();
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const { eventType, scopes } of events) {
    if (!scopes.length) continue;
    const audience = scopes
      .filter((s) => AUDIENCE_TYPES.has(s.scopeType))
      .map((s) => `${s.scopeType}:${s.scopeId}`)
      .sort()
      .join(",");
    if (audience) add(audiences, `${audience}|${eventType}`);
    for (const s of scopes) if (s.scopeType === "USER") add(users, `${s.scopeId}|${eventType}|${audience}`);
  }
  return { audiences, users };
}

async function actualTotals() {
  const db = t.app.deps.db;
  type Row = { scopes: string[]; event_type: string; user_id?: string; total: bigint };
  const read = async (sql: string, key: (r: Row) => string) =>
    new Map((await db.$queryRawUnsafe<Row[]>(sql)).map((r) => [key(r), Number(r.total)]));
  return {
    audiences: await read(totalsSql(EVENT_AUDIENCE_TALLIES), (r) => `${r.scopes.join(",")}|${r.event_type}`),
    users: await read(totalsSql(EVENT_USER_TALLIES), (r) => `${r.user_id}|${r.event_type}|${r.scopes.join(",")}`),
  };
}

async function talliesAgree() {
  expect(await actualTotals()).toEqual(await expectedTotals());
  await countsAgree();
}

it("is the number of events listed for every viewer and type filter, before and after a fold in chunks of ids", async () => {
  const db = t.app.deps.db;
  await talliesAgree();
  const unfolded = async () => Number((await db.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT ${unfoldedRowsSql([EVENT_AUDIENCE_TALLIES, EVENT_USER_TALLIES])} AS n`))[0].n);
  expect(await unfolded()).toBeGreaterThan(0);
  for (const table of [EVENT_AUDIENCE_TALLIES, EVENT_USER_TALLIES]) {
    const [{ newest }] = await db.$queryRawUnsafe<Array<{ newest: bigint }>>(`SELECT max(id) AS newest FROM ${table.table}`);
    // Folding the rows after the newest folds nothing; chunks of ten ids up to it fold everything.
    expect(await foldTallies(db, table, newest, newest + 10n)).toBe(0);
    for (let from = 0n; from < newest; from += 10n) await foldTallies(db, table, from, from + 10n);
  }
  expect(await unfolded()).toBe(0);
  await talliesAgree();
});

it("follows scope rows added, moved and removed, events retyped and deleted", async () => {
  const db = t.app.deps.db;
  const [first, second, third, fourth] = await db.event.findMany({ orderBy: { id: "asc" }, take: 4, include: { scopes: true } });
  await db.eventScope.create({ data: { eventId: first.id, scopeType: "PROJECT", scopeId: t.world.project.id } });
  await talliesAgree();
  await db.eventScope.createMany({
    data: [
      { eventId: second.id, scopeType: "USER", scopeId: t.world.users.offeringManager.id },
      { eventId: third.id, scopeType: "OFFERING", scopeId: t.world.offering.id },
    ],
    skipDuplicates: true,
  });
  await talliesAgree();
  await db.eventScope.updateMany({ where: { eventId: second.id, scopeType: "USER", scopeId: t.world.users.offeringManager.id }, data: { scopeId: t.world.users.projectAdmin.id } });
  await talliesAgree();
  await db.eventScope.deleteMany({ where: { eventId: { in: [third.id, fourth.id] }, scopeType: { in: ["CUSTOMER", "OFFERING"] } } });
  await talliesAgree();
  await db.event.update({ where: { id: first.id }, data: { eventType: "token_created" } });
  await talliesAgree();
  await db.event.deleteMany({ where: { OR: [{ id: second.id }, { eventType: "role_granted" }] } });
  await talliesAgree();
});

it("a viewer's count sums the tallies; a filter on more than the type counts the events", async () => {
  const counted = async (filter: string) =>
    (await countSql(() => t.http("GET", `/api/events/?${filter}`, { token: t.world.tokens.projectMember }))).texts.join("\n");
  const byType = await counted("event_type=token_created");
  expect(byType).toMatch(/"event_audience_tallies"/);
  expect(byType).toMatch(/"event_user_tallies"/);
  expect(byType).not.toMatch(/COUNT\(\*\)/);
  expect(await counted("message=event")).toMatch(/COUNT\(\*\)[\s\S]*"events"/);
});

it("finds each scope row's event by its key, never by reading every event", async () => {
  type Scans = Array<{ seq_scan: bigint; idx_scan: bigint }>;
  const scansOfEvents = (tx: Pick<typeof t.app.deps.db, "$queryRaw">) =>
    tx.$queryRaw<Scans>`SELECT seq_scan, idx_scan FROM pg_stat_xact_user_tables WHERE relname = 'events'`.then(([row]) => row);
  const [before, after] = await t.app.deps.db.$transaction(async (tx) => {
    const before = await scansOfEvents(tx);
    const event = await tx.event.create({ data: { eventType: TYPES[0], message: "keyed", scopes: { create: scopesOf(7) } } });
    const added = { eventId: event.id, scopeType: "OFFERING_USER" as const };
    await tx.eventScope.create({ data: { ...added, scopeId: randomUUID() } });
    await tx.eventScope.updateMany({ where: added, data: { scopeId: randomUUID() } });
    await tx.eventScope.deleteMany({ where: added });
    return [before, await scansOfEvents(tx)];
  });
  expect(after.seq_scan - before.seq_scan).toBe(0n);
  expect(after.idx_scan).toBeGreaterThan(before.idx_scan);
  await talliesAgree();
});

it("is emptied with the scope rows", async () => {
  await t.app.deps.db.$executeRawUnsafe("TRUNCATE event_scopes");
  expect(await actualTotals()).toEqual({ audiences: new Map(), users: new Map() });
  await countsAgree();
});
