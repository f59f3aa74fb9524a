import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

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
