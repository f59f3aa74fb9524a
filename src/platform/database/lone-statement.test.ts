import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../../test/support/app.ts";
import { countSql } from "../../../test/support/sql-counter.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { runStatement } from "./lone-statement.ts";

let t: TestApp;
const zone = process.env.TZ;
beforeAll(async () => {
  t = await startTestApp();
});
afterEach(() => {
  process.env.TZ = zone;
});
afterAll(() => t.close());

it("sends and reads dates as Prisma does (in UTC), whatever the process's time zone; other values too", async () => {
  process.env.TZ = "America/New_York";
  // Past midnight in UTC, still the day before in New York.
  const moment = new Date("2026-07-01T02:34:56.789Z");
  const statement = () => Prisma.sql`SELECT ${moment}::date AS day, ${moment}::timestamp AS at, ${moment}::timestamptz AS instant, ${moment}::date::text AS "dayText",
    9007199254740993::bigint AS big, 12.50::numeric AS amount, 7 AS small, '{"a": [1]}'::jsonb AS doc, ARRAY['x', 'y'] AS list, true AS yes, NULL::text AS nothing`;
  const [alone] = await runStatement<Record<string, unknown>>(t.app.deps.db, statement());
  const [viaPrisma] = await t.app.deps.db.$queryRaw<Array<Record<string, unknown>>>(statement());
  expect(alone).toEqual(viaPrisma);
  expect(alone).toMatchObject({ day: new Date("2026-07-01T00:00:00Z"), at: moment, instant: moment, dayText: "2026-07-01", big: 9007199254740993n, small: 7 });
  expect(String(alone.amount)).toBe("12.5");
});

it("runs on the client as one statement; inside a transaction, on the transaction's connection", async () => {
  const alone = await countSql(() => runStatement(t.app.deps.db, Prisma.sql`SELECT 1 AS one`));
  expect(alone.result).toEqual([{ one: 1 }]);
  expect(alone.statements).toBe(1);
  const inside = await t.app.deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL application_name = 'inside'`;
    return runStatement<{ name: string }>(tx, Prisma.sql`SELECT current_setting('application_name') AS name`);
  });
  expect(inside).toEqual([{ name: "inside" }]);
});
