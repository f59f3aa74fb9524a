import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedDatabase } from "../../../test/support/database.ts";
import { countSql } from "../../../test/support/sql-counter.ts";
import type { OfferingUserState, Prisma } from "../../generated/prisma/client.ts";
import { EVENT_AUDIENCE_TALLIES } from "../../events/tallies.ts";
import { OFFERING_USER_TALLIES } from "../../offering-users/tallies.ts";
import type { Db } from "../database/connect.ts";
import { sumTallies, sumTalliesBy, type TallyCondition } from "./tally-sums.ts";

/** Sums go to the pool, as in production (on PGlite, over its wire protocol). */
let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;
const offerings = [randomUUID(), randomUUID(), randomUUID()];
const STATES: OfferingUserState[] = ["OK", "CREATING", "CREATION_REQUESTED", "DELETED"];

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.prisma;
  // Unfolded tallies of several keys, some cancelling out: what a busy table holds between folds.
  await db.offeringUserTally.createMany({
    data: Array.from({ length: 60 }, (_, i) => ({
      offeringId: offerings[i % 3],
      state: STATES[i % 4],
      hasConsent: i % 5 === 0,
      delta: i % 7 === 0 ? -1 : 1,
    })),
  });
  await db.eventAudienceTally.createMany({
    data: Array.from({ length: 30 }, (_, i) => ({
      scopes: [`CUSTOMER:${i % 3}`, `PROJECT:${i % 4}`].sort(),
      eventType: i % 2 ? "role_granted" : "resource_created",
      delta: 1,
    })),
  });
});
afterAll(() => database?.drop());

type OfferingUserTallyKeys = { offeringId: string; state: OfferingUserState; hasConsent: boolean };

/** Conditions in each form the lists build, with the edge cases of Prisma's where-language (empty lists, NOT of several). */
const OFFERING_USER_CONDITIONS: Record<string, TallyCondition<OfferingUserTallyKeys>> = {
  "no condition": {},
  "a value": { state: "OK" },
  "equals and not": { state: { equals: "OK" }, offeringId: { not: offerings[0] } },
  "in several": { state: { in: ["OK", "CREATING"] }, hasConsent: false },
  "in none": { state: { in: [] } },
  "not in none": { state: { notIn: [] } },
  "not in several": { offeringId: { notIn: [offerings[0], offerings[1]] } },
  "OR of none": { OR: [] },
  "OR of two": { OR: [{ state: "OK" }, { hasConsent: true }] },
  "NOT of several": { NOT: [{ state: "OK" }, { state: "CREATING" }] },
  "NOT of one with two keys": { NOT: { state: "OK", hasConsent: false } },
  "NOT of none": { NOT: [] },
  "AND nested": { AND: [{ offeringId: { in: offerings.slice(0, 2) } }, { AND: { NOT: { offeringId: offerings[1] } } }, { OR: [{ state: "DELETED" }, { state: "OK" }] }] },
};

describe("sums of tallies, in the tables' own statements", () => {
  it.each(Object.entries(OFFERING_USER_CONDITIONS))("%s: the total Prisma's aggregate reads", async (_name, condition) => {
    const viaPrisma = await db.offeringUserTally.aggregate({ where: condition as Prisma.OfferingUserTallyWhereInput, _sum: { delta: true } });
    expect(await sumTallies(db, OFFERING_USER_TALLIES, condition)).toBe(viaPrisma._sum.delta ?? 0);
  });

  it.each([[["CUSTOMER:1"]], [["CUSTOMER:1", "PROJECT:2"]], [[]]])("array keys: an overlap with %j, and its negation", async (roles) => {
    for (const condition of [{ scopes: { hasSome: roles } }, { NOT: { scopes: { hasSome: roles } } }, { eventType: "role_granted", scopes: { hasSome: roles } }]) {
      const viaPrisma = await db.eventAudienceTally.aggregate({ where: condition, _sum: { delta: true } });
      expect(await sumTallies(db, EVENT_AUDIENCE_TALLIES, condition)).toBe(viaPrisma._sum.delta ?? 0);
    }
  });

  it("groups by keys as Prisma's groupBy does, each row naming its keys by field", async () => {
    const where = { offeringId: { in: offerings } };
    const groups = await sumTalliesBy(db, OFFERING_USER_TALLIES, where, ["offeringId", "state"]);
    const viaPrisma = await db.offeringUserTally.groupBy({ by: ["offeringId", "state"], where, _sum: { delta: true } });
    const key = (row: { offeringId: string; state: string }) => `${row.offeringId}|${row.state}`;
    expect(new Map(groups.map((row) => [key(row), row.total]))).toEqual(new Map(viaPrisma.map((row) => [key(row), row._sum.delta])));
    expect(groups.length).toBe(12);
  });

  it("is one statement, with a list's values as parameters", async () => {
    const { statements, texts } = await countSql(() => sumTallies(db, OFFERING_USER_TALLIES, { offeringId: { in: offerings } }));
    expect(statements).toBe(1);
    expect(texts[0]).not.toContain(offerings[0]);
  });
});
