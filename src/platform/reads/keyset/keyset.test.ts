/**
 * The keyset's conditions select exactly the rows after a row in the order they belong to: for several orders (nullable
 * columns, mixed directions, enums, booleans, a to-one relation's column, instants that tie to the millisecond or the
 * microsecond), every row serves as the cursor, forward and backward, strictly and inclusively. Runs on in-memory
 * PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../../../test/support/database.ts";
import type { Db } from "../../database/connect.ts";
import { applyMigrations } from "../../database/migrations.ts";
import { SQL_MODEL } from "../../../generated/sql-model.ts";
import { compileFind, findManyWithKeys } from "../sql/find.ts";
import { runText } from "../../database/lone-statement.ts";
import { rowsAfter } from "./key-condition.ts";
import { keyTermsOf, type KeyTerm, orderByOf, reversed } from "./key-terms.ts";
import { prismaConditions } from "./prisma-conditions.ts";

const MIGRATIONS_DIR = new URL("../../../../prisma/migrations", import.meta.url).pathname;

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: Db;

/** Twelve offering users with ties everywhere, and resources with and without a plan. */
async function seed(db: Db) {
  const customer = await db.customer.create({ data: { name: "Keyset" } });
  const project = await db.project.create({ data: { customerId: customer.id, name: "Keyset" } });
  const offering = await db.offering.create({ data: { customerId: customer.id, name: "Keyset", type: "Marketplace.Basic" } });
  const plans = [
    await db.offeringPlan.create({ data: { offeringId: offering.id, name: "A", unitPrice: "1.5" } }),
    await db.offeringPlan.create({ data: { offeringId: offering.id, name: "B", unitPrice: "1.5" } }),
  ];
  const usernames = [null, "b", "a", null, "b", "c", "a", null, "B", "b", "", "c"];
  const states = ["OK", "CREATING", "OK", "ERROR_CREATING", "OK", "OK", "DELETING", "CREATING", "OK", "OK", "OK", "CREATING"] as const;
  for (const [i, username] of usernames.entries()) {
    const user = await db.user.create({ data: { username: `keyset-${i}`, firstName: i % 3 ? "F" : "" } });
    const row = await db.offeringUser.create({
      data: { offeringId: offering.id, userId: user.id, username, state: states[i], isRestricted: i % 4 === 0, created: new Date(Date.UTC(2026, 0, 1 + (i % 4))) },
    });
    // Two rows a microsecond apart within one millisecond, as a database default could write them.
    if (i >= 10) await db.$executeRaw`UPDATE offering_users SET created = ${`2026-02-01T00:00:00.00010${i - 10}Z`}::timestamptz WHERE id = ${row.id}::uuid`;
  }
  for (let i = 0; i < 6; i++) {
    await db.resource.create({ data: { projectId: project.id, offeringId: offering.id, name: `r${i % 3}`, planId: i % 3 === 0 ? null : plans[i % 2].id } });
  }
}

beforeAll(async () => {
  database = await freshDatabase();
  await applyMigrations(database.sql, MIGRATIONS_DIR);
  db = database.prisma;
  await seed(db);
}, 60_000);
afterAll(() => database?.drop());

const ORDERS: Array<[name: string, model: "offeringUser" | "resource", orderBy: object[]]> = [
  ["nullable text, nulls last, then created and id (offering users' default)", "offeringUser", [{ username: { sort: "asc", nulls: "last" } }, { created: "asc" }, { id: "asc" }]],
  ["nullable text descending, nulls first by default", "offeringUser", [{ username: "desc" }]],
  ["nulls first ascending, created descending", "offeringUser", [{ username: { sort: "asc", nulls: "first" } }, { created: "desc" }]],
  ["an enum, a boolean descending, nullable text", "offeringUser", [{ state: "asc" }, { isRestricted: "desc" }, { username: "asc" }]],
  ["a boolean and an enum descending", "offeringUser", [{ isRestricted: "asc" }, { state: "desc" }, { id: "desc" }]],
  ["instants tied to the millisecond", "offeringUser", [{ created: "desc" }]],
  ["an optional to-one's column (missing: null), a tie, text", "resource", [{ plan: { unitPrice: "desc" } }, { plan: { name: "asc" } }, { name: "desc" }]],
];

const modelName = (key: string) => `${key[0].toUpperCase()}${key.slice(1)}`;

/** The list in the key's order, each row's id with its key's values. */
async function listed(key: "offeringUser" | "resource", terms: KeyTerm[], where: object = {}) {
  const read = await findManyWithKeys(db, key, { where, orderBy: orderByOf(terms), select: { id: true } } as never, terms.map((term) => term.path));
  return read.rows.map((row: { id: string }, i: number) => ({ id: row.id, key: read.keys![i] }));
}

/** The ids `rowsAfter` selects, reading its conditions one after another, each in the key's order. */
async function idsAfter(key: "offeringUser" | "resource", terms: KeyTerm[], values: unknown[], inclusive: boolean) {
  const ids: string[] = [];
  for (const condition of rowsAfter(prismaConditions, terms, values, inclusive)) {
    expect(compileFind(key, { where: condition, orderBy: orderByOf(terms) })).toBeDefined();
    ids.push(...(await listed(key, terms, condition)).map((row) => row.id));
  }
  return ids;
}

describe("keyset conditions", () => {
  it.each(ORDERS)("%s: every row's successors, forward and backward, strict and inclusive", async (_name, key, orderBy) => {
    for (const terms of [keyTermsOf(modelName(key), orderBy), reversed(keyTermsOf(modelName(key), orderBy))]) {
      const all = await listed(key, terms);
      expect(all.length).toBeGreaterThan(5);
      for (const [i, row] of all.entries()) {
        expect(await idsAfter(key, terms, row.key, false)).toEqual(all.slice(i + 1).map((each) => each.id));
        expect(await idsAfter(key, terms, row.key, true)).toEqual(all.slice(i).map((each) => each.id));
      }
    }
  });

  it("Prisma's client selects the same rows with the same conditions (to the millisecond it keeps)", async () => {
    const terms = keyTermsOf("OfferingUser", ORDERS[3][2]);
    const all = await listed("offeringUser", terms);
    for (const row of all) {
      for (const condition of rowsAfter(prismaConditions, terms, row.key)) {
        const ours = await listed("offeringUser", terms, condition);
        const prisma = await db.offeringUser.findMany({ where: condition, orderBy: orderByOf(terms), select: { id: true } });
        expect(prisma.map((each) => each.id)).toEqual(ours.map((each) => each.id));
      }
    }
  });

  it("a key ends with the id, in the direction of the column before it; an order through the id stops there; a column is named once", () => {
    expect(keyTermsOf("OfferingUser", [{ username: "desc" }]).map((term) => [term.path.join("."), term.direction])).toEqual([
      ["username", "desc"],
      ["id", "desc"],
    ]);
    expect(keyTermsOf("OfferingUser", [{ id: "asc" }, { created: "desc" }]).map((term) => term.path.join("."))).toEqual(["id"]);
    expect(keyTermsOf("OfferingUser", [{ created: "desc" }, { created: "desc" }, { id: "desc" }]).map((term) => term.path.join("."))).toEqual(["created", "id"]);
    expect(keyTermsOf("Resource", [{ plan: { name: "asc" } }, {}])[0]).toMatchObject({ path: ["plan", "name"], optionalRelations: [["plan"]] });
  });
});

describe("enum order", () => {
  it("the generated model lists every enum's values in PostgreSQL's order of the type (a keyset compares enums by it)", async () => {
    const enums = new Map<string, string[]>();
    for (const model of Object.values(SQL_MODEL)) {
      for (const field of Object.values(model.fields)) if (field.kind === "enum" && field.values) enums.set(field.type, field.values);
    }
    expect(enums.size).toBeGreaterThan(5);
    for (const [type, values] of enums) {
      const rows = await runText<{ label: string }>(db, `SELECT unnest(enum_range(NULL::"${type}"))::text AS label`, []);
      expect(rows.map((row) => row.label), type).toEqual(values);
    }
  });
});
