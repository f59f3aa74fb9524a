/**
 * The reads compiled to SQL answer what Prisma's client answers: every case below runs both ways on the same data
 * (in-memory PGlite, or PostgreSQL with TEST_DATABASE_URL) and must be translated (one statement of ours), unless it
 * is listed as one left to Prisma.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../../../test/support/database.ts";
import { countSql } from "../../../../test/support/sql-counter.ts";
import { Prisma } from "../../../generated/prisma/client.ts";
import type { Db } from "../../database/connect.ts";
import { applyMigrations } from "../../database/migrations.ts";
import { openDatabase } from "../../database/connect.ts";
import { compileFind, count, findFirst, findMany, findManyWithKeys, findUnique, findUniqueOrThrow, type ModelKey, readKeys, readRule, untranslatedReads } from "./find.ts";

const MIGRATIONS_DIR = new URL("../../../../prisma/migrations", import.meta.url).pathname;

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: Db;
let ids: Awaited<ReturnType<typeof seed>>;

async function seed(db: Db) {
  const provider = await db.customer.create({ data: { name: "Provider", abbreviation: "PR" } });
  const consumer = await db.customer.create({ data: { name: "Consumer 100%_\\", email: "c@example.org" } });
  await db.serviceProvider.create({ data: { customerId: provider.id, description: "sp" } });
  const project = await db.project.create({ data: { customerId: consumer.id, name: "Project", endDate: new Date("2027-03-04T00:00:00Z") } });
  await db.project.create({ data: { customerId: consumer.id, name: "Open-ended" } });
  const managed = await db.offering.create({
    data: { customerId: provider.id, name: "Managed", type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: { service_provider_can_create_offering_user: true, limit: 3 } },
  });
  const other = await db.offering.create({ data: { customerId: provider.id, name: "Other", type: "Marketplace.Basic", pluginOptions: { service_provider_can_create_offering_user: false } } });
  const gold = await db.offeringPlan.create({ data: { offeringId: managed.id, name: "Gold", unitPrice: new Prisma.Decimal("12.3456789012") } });
  await db.offeringPlan.create({ data: { offeringId: managed.id, name: "Free" } });
  await db.offeringTermsOfService.create({ data: { offeringId: managed.id, version: "1", isActive: true, activatedAt: new Date("2026-01-02T03:04:05.678Z") } });
  await db.offeringTermsOfService.create({ data: { offeringId: managed.id, version: "0" } });
  const names = ["alice", "Bob", "carol_x", "dave%", "erin"];
  const users = [];
  for (const [i, username] of names.entries()) {
    users.push(
      await db.user.create({
        data: { username, firstName: username.toUpperCase(), lastName: `L${i}`, passwordHash: i % 2 ? null : "hash", tokenLifetime: i === 1 ? 3600 : null },
      }),
    );
  }
  await db.roleGrant.create({ data: { userId: users[0].id, role: "PROJECT.MEMBER", scopeType: "PROJECT", scopeId: project.id } });
  await db.roleGrant.create({ data: { userId: users[1].id, role: "PROJECT.ADMIN", scopeType: "PROJECT", scopeId: project.id, isActive: false } });
  const states = ["CREATION_REQUESTED", "OK", "OK", "ERROR_CREATING", "DELETING"] as const;
  const offeringUsers = [];
  for (const [i, user] of users.entries()) {
    offeringUsers.push(
      await db.offeringUser.create({
        data: {
          offeringId: i < 4 ? managed.id : other.id,
          userId: user.id,
          state: states[i],
          username: i === 2 ? null : `site_${user.username}`,
          isRestricted: i === 3,
          backendMetadata: i === 1 ? { home: "/home/b", uid: 1001 } : {},
          created: new Date(Date.UTC(2026, 0, 1 + i, 12, 0, 0, 123)),
        },
      }),
    );
  }
  const event = await db.event.create({
    data: { eventType: "marketplace_offering_user_updated", message: "m", context: { a: [1, "x"] }, change: Prisma.DbNull, scopes: { create: [{ scopeType: "OFFERING", scopeId: managed.id }, { scopeType: "CUSTOMER", scopeId: provider.id }] } },
  });
  await db.event.create({ data: { eventType: "other", message: "n", change: { state: "OK" } } });
  await db.offeringUserTally.create({ data: { offeringId: managed.id, state: "OK", delta: 2 } });
  const identity = await db.agentIdentity.create({ data: { offeringId: managed.id, name: "agent", dependencies: [{ name: "x" }] } });
  await db.agentConsumerQueue.create({ data: { identityId: identity.id, userId: users[0].id, tokenDigest: "d".repeat(64), rmqUsername: "rmq1", objectTypes: ["order", "resource"] } });
  const everything = await db.agentIdentity.create({ data: { offeringId: other.id, name: "agent of every type" } });
  await db.agentConsumerQueue.create({ data: { identityId: everything.id, userId: users[1].id, tokenDigest: "e".repeat(64), rmqUsername: "rmq2", objectTypes: [] } });
  const component = await db.offeringComponent.create({ data: { offeringId: managed.id, type: "cpu", name: "CPU", billingType: "USAGE" } });
  const resource = await db.resource.create({ data: { projectId: project.id, offeringId: managed.id, name: "r1", endDate: new Date("2027-01-31T00:00:00Z") } });
  await db.resource.create({ data: { projectId: project.id, offeringId: other.id, planId: gold.id, name: "r2" } });
  // Written by SQL's clock, to the microsecond, as a database default would: finer than a JavaScript date.
  await db.$executeRaw`UPDATE offering_users SET created = '2026-01-03T12:00:00.123456Z' WHERE id = ${offeringUsers[2].id}::uuid`;
  await db.componentUsage.create({
    data: { resourceId: resource.id, componentId: component.id, usage: new Prisma.Decimal("10.25"), date: new Date("2026-05-06T07:08:09.010Z"), billingPeriod: new Date("2026-05-01T00:00:00Z") },
  });
  return { provider, consumer, project, managed, other, users, offeringUsers, event, resource };
}

beforeAll(async () => {
  database = await freshDatabase();
  await applyMigrations(database.sql, MIGRATIONS_DIR);
  db = database.prisma;
  ids = await seed(db);
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

  it("findUnique takes a compound unique key or id", async () => {
    const byKey = { offeringId_userId: { offeringId: ids.managed.id, userId: ids.users[1].id } };
    expect(compileFind("offeringUser", { where: byKey }, 1, true)).toBeDefined();
    expect(await findUnique(db, "offeringUser", { where: byKey })).toEqual(await db.offeringUser.findUnique({ where: byKey }));
    const byId = { eventId_scopeType_scopeId: { eventId: ids.event.id, scopeType: "OFFERING" as const, scopeId: ids.managed.id } };
    expect(await findUnique(db, "eventScope", { where: byId })).toEqual(await db.eventScope.findUnique({ where: byId }));
    expect(await findUnique(db, "eventScope", { where: byId, select: { scopeId: true } })).toEqual({ scopeId: ids.managed.id });
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

  it("findFirst and findUnique answer one row or null", async () => {
    const where = { id: ids.offeringUsers[3].id };
    expect(await findFirst(db, "offeringUser", { where, include: { offering: true } })).toEqual(await db.offeringUser.findFirst({ where, include: { offering: true } }));
    expect(await findUnique(db, "offeringUser", { where })).toEqual(await db.offeringUser.findUnique({ where }));
    expect(await findFirst(db, "offeringUser", { where: { id: { in: [] } } })).toBeNull();
    expect(await findUnique(db, "offeringUser", { where: { id: "00000000-0000-4000-8000-000000000000" } })).toBeNull();
    const first = await findFirst(db, "offeringUser", { orderBy: { created: "desc" }, select: { id: true } });
    expect(first).toEqual({ id: ids.offeringUsers[4].id });
  });

  it("findUniques by id asked in the same tick with the same selection are one statement, as Prisma's client batches them", async () => {
    const select = { id: true, username: true, offering: { select: { name: true } } };
    const missing = "00000000-0000-4000-8000-000000000000";
    const asked = [ids.offeringUsers[2].id, missing, ids.offeringUsers[0].id.toUpperCase(), ids.offeringUsers[2].id];
    const together = await countSql(() => Promise.all(asked.map((id) => findUnique(db, "offeringUser", { where: { id }, select }))));
    expect(together.statements).toBe(1);
    const oneByOne = [];
    for (const id of asked) oneByOne.push(await db.offeringUser.findUnique({ where: { id }, select }));
    expect(together.result).toEqual(oneByOne);
    const events = await countSql(() => Promise.all([ids.event.id, -1].map((id) => findUniqueOrThrow(db, "event", { where: { id } }).catch((error: Error & { code?: string }) => error.code))));
    expect(events.statements).toBe(1);
    expect(events.result).toEqual([await db.event.findUnique({ where: { id: ids.event.id } }), "P2025"]);
    const apart = await countSql(() => Promise.all([findUnique(db, "user", { where: { id: ids.users[0].id }, select: { id: true } }), findUnique(db, "user", { where: { id: ids.users[1].id } })]));
    expect(apart.statements).toBe(2);
  });

  it("inside a transaction, reads on the transaction's connection (it sees the transaction's own writes)", async () => {
    const seen = await db.$transaction(async (tx) => {
      await tx.offeringUser.update({ where: { id: ids.offeringUsers[0].id }, data: { username: "inside" } });
      return findUnique(tx, "offeringUser", { where: { id: ids.offeringUsers[0].id }, select: { username: true } });
    });
    expect(seen).toEqual({ username: "inside" });
    await db.offeringUser.update({ where: { id: ids.offeringUsers[0].id }, data: { username: "site_alice" } });
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
