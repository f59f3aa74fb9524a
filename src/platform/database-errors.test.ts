import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { databaseErrorForClient } from "./database-errors.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it("input the database rejects is a VALIDATION error over GraphQL, not a masked 500", async () => {
  const result = await t.gql(`mutation { createCustomer(name: "a\\u0000b") { uuid } }`, {}, t.world.tokens.staff);
  expect(result.errors![0]).toMatchObject({
    message: "Null characters are not allowed.",
    extensions: { code: "VALIDATION", fields: { non_field_errors: ["Null characters are not allowed."] } },
  });
  expect(await t.app.deps.db.customer.count({ where: { name: { startsWith: "a" } } })).toBe(0);
});

const driverError = (cause: Record<string, string>, prismaCode = "P2010") => ({ code: prismaCode, meta: { driverAdapterError: { cause } } });

it.each([
  ["statement_timeout (57014)", driverError({ kind: "postgres", code: "57014" }), "The database took too long to answer."],
  ["lock_timeout (55P03)", driverError({ kind: "postgres", code: "55P03" }), "The database took too long to answer."],
  ["too many connections (53300, as Prisma's adapter reports it)", driverError({ kind: "TooManyConnections", originalCode: "53300" }), "The database has no free connection."],
  ["an interactive transaction out of time (P2028)", { code: "P2028" }, "The database took too long to answer."],
])("%s is UNAVAILABLE with Retry-After, for a 503", (_name, error, message) => {
  expect(databaseErrorForClient(error)).toMatchObject({
    message,
    extensions: { code: "UNAVAILABLE", http: { headers: { "Retry-After": "1" } } },
  });
});

it("other database failures stay unmapped (masked as internal errors)", () => {
  expect(databaseErrorForClient(driverError({ kind: "postgres", code: "42P01" }))).toBeNull();
  expect(databaseErrorForClient(new Error("boom"))).toBeNull();
});
