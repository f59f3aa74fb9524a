import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DriverAdapterError } from "@prisma/driver-adapter-utils";
import { startTestApp, type TestApp } from "../../../test/support/app.ts";
import { databaseErrorForClient } from "./database-errors.ts";
import { runStatement } from "./lone-statement.ts";
import { Prisma } from "../../generated/prisma/client.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it("input the database rejects is a VALIDATION error over GraphQL, not a masked 500", async () => {
  const result = await t.gql(`mutation { createCustomer(input: { name: "a\\u0000b" }) { ... on Customer { uuid } } }`, {}, t.world.tokens.staff);
  expect(result.errors![0]).toMatchObject({
    message: "Null characters are not allowed.",
    extensions: { code: "VALIDATION", fields: { input: ["Null characters are not allowed."] } },
  });
  expect(await t.app.deps.db.customer.count({ where: { name: { startsWith: "a" } } })).toBe(0);
});

const driverError = (cause: Record<string, string>, prismaCode = "P2010") => ({ code: prismaCode, meta: { driverAdapterError: { cause } } });

it.each([
  ["statement_timeout (57014)", driverError({ kind: "postgres", code: "57014" }), "The database took too long to answer."],
  ["lock_timeout (55P03)", driverError({ kind: "postgres", code: "55P03" }), "The database took too long to answer."],
  ["too many connections (53300, as Prisma's adapter reports it)", driverError({ kind: "TooManyConnections", originalCode: "53300" }), "The database has no free connection."],
  ["an interactive transaction out of time (P2028)", { code: "P2028" }, "The database took too long to answer."],
  [
    "a backend terminated under a raw statement in a transaction (a bare DriverAdapterError, 57P01)",
    new DriverAdapterError({ kind: "postgres", code: "57P01", severity: "FATAL", message: "terminating connection due to administrator command", detail: undefined, column: undefined, hint: undefined }),
    "The database is unavailable.",
  ],
])("%s is UNAVAILABLE with Retry-After, for a 503", (_name, error, message) => {
  expect(databaseErrorForClient(error)).toMatchObject({
    message,
    extensions: { code: "UNAVAILABLE", http: { headers: { "Retry-After": "1" } } },
  });
});

/** The error a real statement fails with, as Prisma reports it on this database (PGlite and PostgreSQL differ in detail). */
async function rejection(statement: () => Promise<unknown>): Promise<unknown> {
  try {
    await statement();
  } catch (error) {
    return error;
  }
  throw new Error("the statement succeeded");
}

describe("every integrity-constraint violation is the client's 400, never a 500", () => {
  const validation = (message: string) => ({ message, extensions: { code: "VALIDATION", fields: { input: [message] } } });

  it("a unique violation (P2002), also inside a transaction and from raw SQL (P2010)", async () => {
    const db = t.app.deps.db;
    const duplicate = { offeringId: t.world.offering.id, type: "cpu", name: "again", billingType: "USAGE" } as const;
    for (const statement of [
      () => db.user.create({ data: { username: "staff" } }),
      () => db.offeringComponent.create({ data: duplicate }),
      () => db.$transaction((tx) => tx.user.create({ data: { username: "staff" } })),
      () => db.$executeRaw`INSERT INTO users (id, username) VALUES (gen_random_uuid(), 'staff')`,
    ]) {
      expect(databaseErrorForClient(await rejection(statement))).toMatchObject(validation("An object with these values already exists."));
    }
  });

  it("a foreign-key violation (P2003) and a missing required value", async () => {
    const db = t.app.deps.db;
    const fk = await rejection(() => db.project.create({ data: { customerId: "00000000-0000-0000-0000-000000000001", name: "p" } }));
    expect(databaseErrorForClient(fk)).toMatchObject(validation("A related object does not exist or is still in use."));
    const notNull = await rejection(() => db.$executeRaw`INSERT INTO users (id, username) VALUES (gen_random_uuid(), NULL)`);
    expect(databaseErrorForClient(notNull)).toMatchObject(validation("A required value is missing."));
  });

  it("from a statement that commits alone (on PostgreSQL the driver's own error, not Prisma's)", async () => {
    const db = t.app.deps.db;
    const unique = await rejection(() => runStatement(db, Prisma.sql`INSERT INTO users (id, username) VALUES (gen_random_uuid(), 'staff')`));
    expect(databaseErrorForClient(unique)).toMatchObject(validation("An object with these values already exists."));
    const bad = await rejection(() => runStatement(db, Prisma.sql`SELECT ${"not a uuid"}::uuid`));
    expect(databaseErrorForClient(bad)).toMatchObject(validation("Invalid value."));
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("PostgreSQL: a statement that commits alone, cancelled (57014), is UNAVAILABLE", async () => {
    const cancelled = await rejection(() => runStatement(t.app.deps.db, Prisma.sql`SELECT pg_cancel_backend(pg_backend_pid()), pg_sleep(0.2)`));
    expect(databaseErrorForClient(cancelled)).toMatchObject({ message: "The database took too long to answer.", extensions: { code: "UNAVAILABLE" } });
  });

  it("any other constraint class-23 state, by SQLSTATE or Prisma code", () => {
    expect(databaseErrorForClient(driverError({ kind: "postgres", code: "23514" }))).toMatchObject(validation("Invalid value."));
    expect(databaseErrorForClient({ code: "P2004" })).toMatchObject(validation("Invalid value."));
  });
});

it("other database failures stay unmapped (masked as internal errors)", () => {
  expect(databaseErrorForClient(driverError({ kind: "postgres", code: "42P01" }))).toBeNull();
  expect(databaseErrorForClient(new Error("boom"))).toBeNull();
});
