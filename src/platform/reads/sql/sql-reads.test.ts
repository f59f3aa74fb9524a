/**
 * The reads compiled to SQL answer what Prisma's client answers: every case below runs both ways on the same data
 * (in-memory PGlite, or PostgreSQL with TEST_DATABASE_URL) and must be translated (one statement of ours), unless it
 * is listed as one left to Prisma. The entry points services call (records, batching, transactions) are find.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReadData, readsDatabase } from "../../../../test/support/sql-reads-data.ts";
import { countSql } from "../../../../test/support/sql-counter.ts";
import { Prisma } from "../../../generated/prisma/client.ts";
import type { Db } from "../../database/connect.ts";
import { applyMigrations } from "../../database/migrations.ts";
import { openDatabase } from "../../database/connect.ts";
import { compileFind, count, findMany, findManyWithKeys, type ModelKey, readKeys, readRule, untranslatedReads } from "./find.ts";

const MIGRATIONS_DIR = new URL("../../../../prisma/migrations", import.meta.url).pathname;

let database: Awaited<ReturnType<typeof readsDatabase>>["database"];
let db: Db;
let ids: ReadData;


beforeAll(async () => {
  ({ database, db, ids } = await readsDatabase());
}, 60_000);
afterAll(() => database?.drop());

type Case = [name: string, key: ModelKey, args: () => object];

const WHERE_CASES: Case[] = [
  ["no condition", "offeringUser", () => ({})],
  ["an id", "offeringUser", () => ({ where: { id: ids.offeringUsers[1].id } })],
  ["every", "user", () => ({ where: { roles: { every: { isActive: true } } } })],
  ["every, on a nullable column (NULL says nothing)", "user", () => ({ where: { roles: { every: { expirationTime: { gt: new Date("2000-01-01") } } } } })],
  ["every of nothing, and none of nothing", "user", () => ({ where: { roles: { every: {} }, sshKeys: { none: {} } } })],
  ["AND with an empty part", "offeringUser", () => ({ where: { AND: [{ id: ids.offeringUsers[1].id }, {}] } })],
  ["in and notIn, empty too", "offeringUser", () => ({ where: { id: { in: [ids.offeringUsers[0].id, ids.offeringUsers[2].id] }, userId: { notIn: [] } } })],
  ["in nothing", "offeringUser", () => ({ where: { id: { in: [] } } })],
  ["an enum in and notIn", "offeringUser", () => ({ where: { state: { notIn: ["OK"] }, AND: { state: { in: ["OK", "DELETING", "ERROR_CREATING"] } } } })],
  ["null and not null", "offeringUser", () => ({ where: { OR: [{ username: null }, { username: { not: null }, isRestricted: true }] } })],
  ["not a value on a nullable column", "offeringUser", () => ({ where: { username: { not: "site_alice" } } })],
  ["notIn on a nullable column", "offeringUser", () => ({ where: { username: { notIn: ["site_alice"] } } })],
  ["NOT of a nullable column's value", "offeringUser", () => ({ where: { NOT: { username: "site_alice" } } })],
  ["NOT as a list", "offeringUser", () => ({ where: { NOT: [{ state: "OK" }, { isRestricted: true }] } })],
  ["not as a filter", "offeringUser", () => ({ where: { state: { not: { in: ["OK", "DELETING"] } } } })],
  ["date ranges", "offeringUser", () => ({ where: { created: { gte: new Date("2026-01-02T12:00:00.123Z"), lt: new Date("2026-01-04T00:00:00Z") } } })],
  ["contains, insensitive", "user", () => ({ where: { username: { contains: "A", mode: "insensitive" } } })],
  ["contains, sensitive", "user", () => ({ where: { username: { contains: "a" } } })],
  ["wildcards unescaped, as Prisma sends them", "user", () => ({ where: { username: { contains: "%", mode: "insensitive" } } })],
  ["startsWith and endsWith", "user", () => ({ where: { OR: [{ username: { startsWith: "b", mode: "insensitive" } }, { username: { endsWith: "x" } }] } })],
  ["equals, insensitive", "user", () => ({ where: { username: { equals: "BOB", mode: "insensitive" } } })],
  ["OR of nothing", "offeringUser", () => ({ where: { OR: [] } })],
  ["conditions without a prototype, as graphql-js makes input objects", "offeringUser", () => ({ where: Object.assign(Object.create(null), { state: Object.assign(Object.create(null), { in: ["OK"] }) }) })],
  ["a to-one relation's condition", "offeringUser", () => ({ where: { offering: { customerId: { in: [ids.provider.id] }, name: "Managed" } } })],
  ["a to-one relation's is", "offeringUser", () => ({ where: { offering: { is: { name: "Other" } } } })],
  ["an optional to-one's condition, and NOT of it", "resource", () => ({ where: { OR: [{ plan: { name: "Gold" } }, { NOT: { plan: { name: "Gold" } } }] } })],
  ["NOT of an optional to-one's condition", "resource", () => ({ where: { NOT: { plan: { name: "Gold" } } } })],
  ["a to-one inside a to-one", "offeringUser", () => ({ where: { offering: { customer: { name: "Provider" } } } })],
  ["one relation in several conditions (one join)", "offeringUser", () => ({ where: { AND: [{ offering: { name: "Managed" } }, { OR: [{ offering: { state: "ACTIVE" } }, { offering: { type: "x" } }] }] } })],
  ["a to-one inside a list relation's some", "offering", () => ({ where: { offeringUsers: { some: { user: { username: { startsWith: "a" } } } } } })],
  ["a to-one whose key is on the other side", "customer", () => ({ where: { serviceProvider: { description: "sp" } } })],
  ["a JSON path", "offeringUser", () => ({ where: { offering: { pluginOptions: { path: ["service_provider_can_create_offering_user"], equals: true } } } })],
  ["a JSON path to a number", "offering", () => ({ where: { pluginOptions: { path: ["limit"], equals: 3 } } })],
  ["a list relation's some and none", "offeringUser", () => ({ where: { user: { roles: { some: { isActive: true, scopeType: "PROJECT", scopeId: { in: [ids.project.id] } } } } } })],
  ["NOT a list relation's some", "offeringUser", () => ({ where: { NOT: { offering: { termsOfService: { some: { isActive: true } } } } } })],
  ["none", "user", () => ({ where: { roles: { none: {} } } })],
  ["a nullable Int", "user", () => ({ where: { OR: [{ tokenLifetime: { gt: 60 } }, { tokenLifetime: null }] } })],
  ["a list column's has", "agentConsumerQueue", () => ({ where: { objectTypes: { has: "order" } } })],
  ["a list column's isEmpty", "agentConsumerQueue", () => ({ where: { objectTypes: { isEmpty: true } } })],
  ["a list column's isEmpty: false", "agentConsumerQueue", () => ({ where: { objectTypes: { isEmpty: false } } })],
  ["a list column's hasSome", "agentConsumerQueue", () => ({ where: { objectTypes: { hasSome: ["resource", "x"] } } })],
  ["a char column", "agentConsumerQueue", () => ({ where: { tokenDigest: "d".repeat(64) } })],
  ["an Int id", "event", () => ({ where: { id: { in: [ids.event.id] } } })],
  ["a Decimal", "offeringPlan", () => ({ where: { unitPrice: { gt: new Prisma.Decimal("1.5") } } })],
  ["a date column", "project", () => ({ where: { endDate: { lt: new Date("2027-06-01T00:00:00Z") } } })],
  ["an optional to-one's absence", "resource", () => ({ where: { plan: null } })],
  ["is: null and isNot: null", "resource", () => ({ where: { OR: [{ plan: { is: null }, name: "r1" }, { plan: { isNot: null } }] }, orderBy: { name: "asc" } })],
  ["NOT of a to-one's absence", "resource", () => ({ where: { NOT: { plan: { is: null } } } })],
  ["the absence of a to-one whose key is on the other side", "customer", () => ({ where: { serviceProvider: null } })],
  ["an absence inside a to-one", "resource", () => ({ where: { project: { customer: { serviceProvider: { is: null } } } } })],
  ["a uuid compared", "offeringUser", () => ({ where: { id: { gt: ids.offeringUsers[2].id } } })],
  ["an instant compared as ISO text", "offeringUser", () => ({ where: { created: { gt: "2026-01-02T12:00:00.123Z" } }, orderBy: { created: "asc" } })],
  [
    "a keyset: the first column bounded, then past it or tied and past the next",
    "offeringUser",
    () => ({
      where: {
        OR: [
          { AND: [{ username: { gte: "site_Bob" } }, { OR: [{ username: { gt: "site_Bob" } }, { AND: [{ username: "site_Bob" }, { created: { gt: "2026-01-02T12:00:00.123000Z" } }] }] }] },
          { username: null },
        ],
      },
    }),
  ],
  ["a keyset through an optional to-one", "resource", () => ({ where: { OR: [{ plan: { unitPrice: { lt: "20" } } }, { plan: null }] }, orderBy: { name: "asc" } })],
];

const SELECT_CASES: Case[] = [
  ["every scalar: nullable text and Int", "user", () => ({ orderBy: { username: "asc" } })],
  ["_count of every list relation", "project", () => ({ select: { name: true, _count: true }, orderBy: { name: "asc" } })],
  ["_count of some, one under a condition, in a relation's object too", "offering", () => ({
    select: { name: true, _count: { select: { plans: true, resources: { where: { state: "OK" } } } }, customer: { select: { _count: { select: { projects: true } } } } },
    orderBy: { name: "asc" },
  })],
  ["JSON, nullable JSON, Int id", "event", () => ({ orderBy: { id: "asc" } })],
  ["Decimal", "offeringPlan", () => ({ orderBy: { name: "asc" } })],
  ["BigInt", "offeringUserTally", () => ({})],
  ["a date and a nullable date", "project", () => ({ orderBy: { name: "desc" } })],
  ["a text list", "agentConsumerQueue", () => ({})],
  ["a select", "offeringUser", () => ({ select: { id: true, state: true, username: false }, orderBy: [{ created: "desc" }] })],
  [
    "the REST record's include: a to-one with a to-one and a filtered to-many inside",
    "offeringUser",
    () => ({
      where: { id: ids.offeringUsers[0].id },
      include: {
        offering: {
          select: {
            termsOfService: { where: { isActive: true }, select: { id: true, version: true, requiresReconsent: true, gracePeriodDays: true, activatedAt: true, created: true } },
            customer: { select: { name: true } },
            name: true,
            customerId: true,
          },
        },
      },
    }),
  ],
  ["a to-many, ordered, sliced", "offering", () => ({ include: { plans: { orderBy: { name: "asc" }, take: 1, skip: 1 }, termsOfService: true }, orderBy: { name: "asc" } })],
  ["Decimal, BigInt-free dates and JSON inside JSON", "resource", () => ({ include: { componentUsages: { include: { component: true } }, offering: { select: { pluginOptions: true, plans: true } } } })],
  ["an optional to-one whose key is on the other side, null and not", "customer", () => ({ include: { serviceProvider: true }, orderBy: { name: "asc" } })],
  ["a to-many inside a select", "user", () => ({ select: { username: true, roles: { select: { role: true, isActive: true } } }, orderBy: { username: "asc" } })],
  ["event scopes as a list", "event", () => ({ include: { scopes: { orderBy: { scopeType: "asc" } } }, orderBy: { id: "desc" } })],
  ["nulls ordered and a page", "offeringUser", () => ({ orderBy: [{ username: { sort: "asc", nulls: "first" } }, { id: "asc" }], take: 2, skip: 1 })],
  ["descending with nulls last", "offeringUser", () => ({ orderBy: [{ username: { sort: "desc", nulls: "last" } }, { id: "desc" }] })],
  ["by an optional to-one's column (a missing row sorts as a null)", "resource", () => ({ orderBy: [{ plan: { name: "asc" } }, { id: "asc" }] })],
  ["by it descending, and a condition on the same relation", "resource", () => ({ where: { OR: [{ plan: { unitPrice: { gt: 1 } } }, { plan: null }] }, orderBy: [{ plan: { unitPrice: "desc" } }, { id: "desc" }] })],
  ["by a to-one inside a to-one", "resource", () => ({ orderBy: [{ project: { customer: { name: "desc" } } }, { offering: { name: "asc" } }, { name: "asc" }] })],
  ["a to-many ordered by its own to-one", "offering", () => ({ include: { resources: { orderBy: [{ plan: { name: "desc" } }, { name: "asc" }] } }, orderBy: { name: "asc" } })],
];

/** distinct with neither an order nor a slice: both answer the same rows, in no particular order. */
const DISTINCT_CASES: Case[] = [
  ["one column", "offeringUser", () => ({ distinct: ["offeringId"], select: { offeringId: true } })],
  ["one column, named alone, under a condition", "offeringUser", () => ({ where: { state: { not: "DELETING" } }, distinct: "state", select: { state: true } })],
  ["a column and a to-one's column it decides", "resource", () => ({ distinct: ["projectId"], select: { projectId: true, project: { select: { customerId: true } } } })],
  ["two columns", "offeringUser", () => ({ distinct: ["isRestricted", "state"], select: { isRestricted: true, state: true } })],
];

/** Reads left to Prisma's client: they still answer, unchanged. */
const UNTRANSLATED: Case[] = [
  ["distinct with an order", "offeringUser", () => ({ distinct: ["state"], select: { state: true }, orderBy: { state: "asc" } })],
  ["distinct with a slice", "offeringUser", () => ({ distinct: ["state"], select: { state: true }, take: 2 })],
  ["distinct on JSON", "offeringUser", () => ({ distinct: ["backendMetadata"], select: { backendMetadata: true } })],
  ["a _count argument Prisma has not (orderBy)", "offering", () => ({ select: { _count: { select: { plans: { orderBy: { name: "asc" } } } } } })],
  ["order by a relation's count", "offering", () => ({ orderBy: { plans: { _count: "asc" } } })],
  ["a negative take", "offeringUser", () => ({ take: -1, orderBy: { id: "asc" } })],
  ["two operations of a list filter (Prisma refuses them)", "agentConsumerQueue", () => ({ where: { objectTypes: { has: "order", hasSome: ["x"] } } })],
  ["a compound key outside findUnique (Prisma refuses it)", "offeringUser", () => ({ where: { offeringId_userId: { offeringId: ids.managed.id, userId: ids.users[1].id } } })],
];

describe("reads compiled to SQL answer as Prisma's client does", () => {
  it.each(WHERE_CASES)("where: %s", async (_name, key, args) => {
    const expected = await prismaFindMany(key, args());
    const compiled = await countSql(() => findMany(db, key, args() as never));
    expect(compileFind(key, args())).toBeDefined();
    expect(compiled.result).toEqual(expected);
    expect(compiled.statements).toBe(1);
    const where = (args() as { where?: object }).where;
    expect(await count(db, key, where as never)).toBe(await (db[key] as unknown as { count(args: object): Promise<number> }).count({ where }));
  });

  it.each(SELECT_CASES)("select: %s", async (_name, key, args) => {
    const expected = await prismaFindMany(key, args());
    expect(compileFind(key, args())).toBeDefined();
    expect(await findMany(db, key, args() as never)).toEqual(expected);
  });

  it.each(DISTINCT_CASES)("distinct: %s", async (_name, key, args) => {
    const sorted = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();
    const expected = await prismaFindMany(key, args());
    expect(compileFind(key, args())).toBeDefined();
    const compiled = await findMany(db, key, args() as never);
    expect(sorted(compiled)).toEqual(sorted(expected));
    expect(compiled.length).toBeLessThan(await (db[key] as unknown as { count(): Promise<number> }).count());
  });

  describe("what does not translate", () => {
    const strict = readRule.strict;
    beforeAll(() => void (readRule.strict = false));
    afterAll(() => void (readRule.strict = strict));

    it.each(UNTRANSLATED)("left to Prisma, and counted: %s", async (_name, key, args) => {
      const before = untranslatedReads.get(key) ?? 0;
      expect(compileFind(key, args())).toBeUndefined();
      const expected = await prismaFindMany(key, args()).catch((error: Error) => error.name);
      expect(await findMany(db, key, args() as never).catch((error: Error) => error.name)).toEqual(expected);
      expect(untranslatedReads.get(key)).toBe(before + 2);
    });

    it("SQL_READS_STRICT (the tests' setting) throws instead, naming what did not translate", () => {
      readRule.strict = true;
      try {
        expect(() => compileFind("offeringUser", { distinct: ["state"], select: { state: true }, take: 1 } as never)).toThrow(
          /SQL_READS_STRICT: a read of offeringUser does not translate to SQL \(distinct with an order or a slice\)/,
        );
      } finally {
        readRule.strict = false;
      }
    });
  });

  it("compiles a selection once, and a selection with other values in its conditions apart", async () => {
    const withTerms = (version: string) => ({ where: { id: ids.managed.id }, select: { name: true, termsOfService: { where: { version }, select: { version: true } } } });
    for (const version of ["1", "0", "1", "2"]) {
      const expected = await db.offering.findMany(withTerms(version));
      expect(await findMany(db, "offering", withTerms(version))).toEqual(expected);
      expect(expected[0].termsOfService.map((terms) => terms.version)).toEqual(version === "2" ? [] : [version]);
    }
    const first = compileFind("offering", withTerms("1"))!;
    const again = compileFind("offering", withTerms("1"))!;
    expect(again.text).toBe(first.text);
    expect(again.values).toEqual(first.values);
    expect(again.values).not.toBe(first.values);
  });

  it("compares instants to the microsecond (Prisma's client compares them to the millisecond), and reads keys exactly", async () => {
    const where = { created: { gt: "2026-01-03T12:00:00.123455Z", lte: "2026-01-03T12:00:00.123456Z" } };
    expect((await findMany(db, "offeringUser", { where, select: { id: true } })).map((row) => row.id)).toEqual([ids.offeringUsers[2].id]);
    const keys = [["created"], ["username"], ["state"], ["offering", "customer", "name"], ["id"]];
    const read = await findManyWithKeys(db, "offeringUser", { where, select: { id: true } }, keys);
    expect(read.rows).toEqual([{ id: ids.offeringUsers[2].id }]);
    expect(read.keys).toEqual([["2026-01-03T12:00:00.123456Z", null, "OK", "Provider", ids.offeringUsers[2].id]]);
    expect(await readKeys(db, "offeringUser", keys, [ids.offeringUsers[2].id, ids.offeringUsers[3].id])).toEqual(
      new Map([
        [ids.offeringUsers[2].id, ["2026-01-03T12:00:00.123456Z", null, "OK", "Provider", ids.offeringUsers[2].id]],
        [ids.offeringUsers[3].id, ["2026-01-04T12:00:00.123000Z", "site_dave%", "ERROR_CREATING", "Provider", ids.offeringUsers[3].id]],
      ]),
    );
    const days = await findManyWithKeys(db, "resource", { where: { name: "r1" }, select: { name: true } }, [["endDate"], ["plan", "unitPrice"]]);
    expect(days.keys).toEqual([["2027-01-31T00:00:00.000000Z", null]]);
    const prices = await findManyWithKeys(db, "resource", { where: { name: "r2" }, select: { name: true } }, [["plan", "unitPrice"]]);
    expect(prices.keys).toEqual([["12.3456789012"]]);
  });


  it("reads dates alike in any time zone of the process (inside JSON too)", async () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      const args = { include: { componentUsages: true, offering: { select: { termsOfService: true } } }, where: { endDate: { gte: new Date("2027-01-31T00:00:00Z") } } };
      const rows = await findMany(db, "resource", args);
      expect(rows).toEqual(await db.resource.findMany(args));
      expect(rows[0].endDate).toEqual(new Date("2027-01-31T00:00:00Z"));
      expect(rows[0].componentUsages[0].billingPeriod).toEqual(new Date("2026-05-01T00:00:00Z"));
    } finally {
      process.env.TZ = zone;
    }
  });



});

describe("an embedded database migrated by this process", () => {
  it("takes lists of its enums (PGlite knows no type created after it started: they are sent as text)", async () => {
    const embedded = await openDatabase({});
    try {
      await applyMigrations(embedded.sql, MIGRATIONS_DIR);
      const args = { where: { state: { in: ["OK" as const, "CREATING" as const] }, offering: { state: { notIn: ["ARCHIVED" as const] } } } };
      expect(compileFind("offeringUser", args)).toBeDefined();
      expect(await findMany(embedded.prisma, "offeringUser", args)).toEqual([]);
      expect(await findMany(embedded.prisma, "agentConsumerQueue", { where: { objectTypes: { hasSome: ["order"] } } })).toEqual([]);
    } finally {
      await embedded.close();
    }
  }, 60_000);
});

/** Prisma's own answer: the delegate's findMany (its generic signature does not survive a dynamic key). */
const prismaFindMany = (key: ModelKey, args: object) => (db[key] as unknown as { findMany(args: object): Promise<unknown[]> }).findMany(args);
