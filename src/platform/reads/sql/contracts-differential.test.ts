/**
 * Generated differential cases: every filter, order and visibility rule of every collection contract
 * (test/support/contract-reads.ts) turned into the Prisma arguments its list reads, and read both through sql-reads
 * and through Prisma's client, which must answer alike. sql-reads' statements take production's path, the pool
 * (runText): on PostgreSQL with TEST_DATABASE_URL, and in `npm test` on PGlite through its pool, which speaks
 * PGlite's wire protocol in-process (src/platform/database/pglite-wire.ts).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../../app.ts";
import { migratedDatabase } from "../../../../test/support/database.ts";
import { CONTRACT_READS, type ContractReads } from "../../../../test/support/contract-reads.ts";
import { REST_API } from "../../../modules.ts";
import { buildSplitData, CUTOFF } from "../../../../test/support/split-data.ts";
import { buildWorld, type Persona } from "../../../../test/support/world.ts";
import { buildContext, type Context } from "../../../context.ts";
import type { FilterKind } from "../../../collections/contract.ts";
import { DomainError } from "../../errors.ts";
import { SQL_MODEL } from "../../../generated/sql-model.ts";
import type { Database, Db } from "../../database/connect.ts";
import { compileCount, compileFind, count, findMany, type ModelKey } from "./find.ts";

/** When split-data's vintage rows were created and modified: a bound equal to some rows' instant. */
const VINTAGE = new Date("2020-06-01T00:00:00Z");
const BASE_URL = "http://gateway.test";
const NO_SUCH_UUID = "0123456789ab4def8123456789abcdef";
/** Viewers whose visibility differs: everything, a provider's, a consumer's. */
const VIEWERS: readonly Persona[] = ["staff", "providerOwner", "projectMember"];

let app: App;
let database: Database & { drop(): Promise<void> };
let db: Db;
let viewers: Map<Persona, Context>;
/** Every row's id of every table keyed by a uuid: a uuid filter given them all matches whatever it can. */
let everyId: string[];

beforeAll(async () => {
  // PostgreSQL's pool, or the embedded database's: sql-reads' reads take production's path.
  database = await migratedDatabase();
  app = await createApp({ database, config: { seedDemo: false, logLevel: "silent", pubsubPrefix: `test-${randomBytes(4).toString("hex")}` } });
  const world = await buildWorld(app.deps.db);
  await buildSplitData({ app, world, baseUrl: BASE_URL });
  db = app.deps.db;
  const contexts = VIEWERS.map(async (persona) => [persona, await buildContext(app.deps, { authorization: `Token ${world.tokens[persona]}`, url: BASE_URL })] as const);
  viewers = new Map(await Promise.all(contexts));
  everyId = await idsOfEveryTable();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

async function idsOfEveryTable(): Promise<string[]> {
  const tables = Object.values(SQL_MODEL).filter((model) => model.fields.id?.kind === "scalar" && model.fields.id.native === "Uuid");
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(tables.map((model) => `SELECT id::text AS id FROM "${model.table}"`).join(" UNION ALL "));
  return rows.map((row) => row.id);
}

/** Text values: a common substring and the empty text; for the few filters that parse their text and refuse both, values of their form. */
const TEXTS = ["a", ""];
const FORMED_TEXTS = ["on_time,overrun", '{"size": 1}', "PROJECT.ADMIN,CUSTOMER.OWNER"];

/** Sample values of a filter's kind: ones the seeded data has, and one that matches nothing. */
const SAMPLES: { [K in FilterKind | "formedText"]: (labels: readonly string[]) => unknown[] } = {
  uuids: () => [everyId, [NO_SUCH_UUID]],
  choice: (values) => [values, values.slice(0, 1)],
  text: () => TEXTS,
  formedText: () => FORMED_TEXTS,
  texts: () => [["a", "split"], ["nothing-like-it"]],
  boolean: () => [true, false],
  int: () => [0, 2],
  number: () => [0, 1.5],
  after: () => [new Date(CUTOFF), VINTAGE],
  before: () => [new Date(CUTOFF), VINTAGE],
  date: () => [new Date(CUTOFF), VINTAGE],
};

/** The order of a list whose orders are computed in SQL (not Prisma's): any, so long as both reads keep it. */
const BY_ID = [{ id: "asc" }];

const defaultOrder = (list: ContractReads) => list.defaultOrder ?? BY_ID;

interface Read {
  model: ModelKey;
  where: object;
  orderBy: unknown[];
}

/** Prisma's own answers (the delegates' generic signatures do not survive a dynamic key). */
type Delegate = { findMany(args: object): Promise<unknown[]>; count(args: object): Promise<number> };
const prismaOf = (model: ModelKey) => db[model] as unknown as Delegate;

/** Reads `read` both ways, as a page and as a count; answers how many rows it lists. */
async function expectAlike(read: Read, label: string): Promise<number> {
  const args = { where: read.where, orderBy: read.orderBy };
  expect(compileFind(read.model, args), `${label} compiles`).toBeDefined();
  expect(compileCount(read.model, read.where), `${label} counts`).toBeDefined();
  const [rows, expected] = await Promise.all([findMany(db, read.model, args as never), prismaOf(read.model).findMany(args)]);
  expect(rows, label).toEqual(expected);
  expect(await count(db, read.model, read.where as never), label).toBe(await prismaOf(read.model).count({ where: read.where }));
  return rows.length;
}

/** The list's condition under one filter's value, or undefined when the filter refuses it (a 400, no read). */
async function whereOf(list: ContractReads, ctx: Context, name: string, value: unknown) {
  try {
    return await list.where(ctx, { [name]: value });
  } catch (error) {
    if (error instanceof DomainError) return undefined;
    throw error;
  }
}

/** The sample values each filter of the list accepts, with the list's condition under each. */
async function filterReads(list: ContractReads, ctx: Context): Promise<Array<{ name: string; label: string; where: object }>> {
  const reads = [];
  for (const [name, filter] of Object.entries(list.filters)) {
    const labels = filter.kind === "choice" ? [...new Set(Object.values(filter.labels))] : [];
    const accepted = async (kind: keyof typeof SAMPLES) => {
      const wheres = await Promise.all(SAMPLES[kind](labels).map(async (value) => ({ value, where: await whereOf(list, ctx, name, value) })));
      return wheres.filter((read): read is { value: unknown; where: object } => read.where !== undefined);
    };
    let values = await accepted(filter.kind);
    if (!values.length && filter.kind === "text") values = await accepted("formedText");
    reads.push(...values.map(({ value, where }) => ({ name, label: `${name}=${JSON.stringify(value).slice(0, 60)}`, where })));
  }
  return reads;
}

describe.each(CONTRACT_READS.map((list) => [list.name, list] as const))("%s: sql-reads answers as Prisma's client", (_name, list) => {
  it("every filter, each sample value, under everyone's visibility", async () => {
    const reads = await filterReads(list, viewers.get("staff")!);
    expect([...new Set(reads.map((read) => read.name))].sort(), "every filter has a value it accepts").toEqual(Object.keys(list.filters).sort());
    let listed = 0;
    for (const read of reads) listed += await expectAlike({ model: list.model, where: read.where, orderBy: defaultOrder(list) }, read.label);
    expect(listed, "some value lists rows").toBeGreaterThan(0);
  });

  it("every filter, its first sample value, under a provider owner's visibility", async () => {
    const reads = await filterReads(list, viewers.get("providerOwner")!);
    const firsts = reads.filter((read, i) => reads.findIndex((other) => other.name === read.name) === i);
    for (const read of firsts) await expectAlike({ model: list.model, where: read.where, orderBy: defaultOrder(list) }, read.label);
  });

  it("every order", async () => {
    const where = await list.where(viewers.get("staff")!, {});
    let listed = 0;
    for (const order of list.orders) listed += await expectAlike({ model: list.model, where, orderBy: order.orderBy }, order.value);
    if (list.orders.length) expect(listed).toBeGreaterThan(0);
  });

  it.each(VIEWERS)("the visibility of %s", async (persona) => {
    const where = await list.where(viewers.get(persona)!, {});
    await expectAlike({ model: list.model, where, orderBy: defaultOrder(list) }, persona);
  });
});

it("covers the contract of every list the REST API serves, so a new list is read both ways too", () => {
  // By its filters' names: a route may respell one filter for REST (maintenance's type as Waldur's number).
  const namesOf = (filters: object) => Object.keys(filters).sort().join();
  const covered = new Set(CONTRACT_READS.map((list) => namesOf(list.filters)));
  const served = REST_API.routes.filter((route) => route.contract && !covered.has(namesOf(route.contract.filters))).map((route) => route.path);
  expect(served).toEqual([]);
});
