import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { countSql } from "../../test/support/sql-counter.ts";
import { GrantsBatch, grantsOf } from "./grants.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("GrantsBatch", () => {
  it("reads the grants of every user asked for in one turn with one statement, each user getting their own", async () => {
    const { db } = t.app.deps;
    const now = () => new Date();
    const personas = ["providerOwner", "providerManager", "offeringManager", "staff"] as const;
    const alone = await Promise.all(personas.map((p) => grantsOf(db, t.world.users[p].id, now())));
    const batch = new GrantsBatch(db, now);
    const { result, statements } = await countSql(() => Promise.all(personas.flatMap((p) => [batch.load(t.world.users[p].id), batch.load(t.world.users[p].id)])));
    expect(statements).toBe(1);
    expect(result).toEqual(alone.flatMap((grants) => [grants, grants]));
    expect(alone[0].length).toBeGreaterThan(0);
  });

  it("reads again on a later turn, so a revoked role is seen at the next decision", async () => {
    const { db } = t.app.deps;
    const batch = new GrantsBatch(db, () => new Date());
    const user = t.world.users.providerManager.id;
    const before = await batch.load(user);
    expect(before.length).toBeGreaterThan(0);
    await db.roleGrant.updateMany({ where: { userId: user }, data: { isActive: false } });
    try {
      expect(await batch.load(user)).toEqual([]);
    } finally {
      await db.roleGrant.updateMany({ where: { userId: user }, data: { isActive: true } });
    }
  });
});
