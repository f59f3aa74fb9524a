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

describe("grantsOf", () => {
  it("carries a customer's projects on an owner's grant only: a manager's roles stay small however many projects the customer has", async () => {
    const { db } = t.app.deps;
    const customer = await db.customer.create({ data: { name: "Many projects" } });
    const projects = await Promise.all([1, 2, 3].map((n) => db.project.create({ data: { customerId: customer.id, name: `P${n}` } })));
    const [owner, manager] = await Promise.all(
      ["owner", "manager"].map((name) => db.user.create({ data: { username: `grants-${name}`, firstName: "G", lastName: name, email: `${name}@grants.test` } })),
    );
    await db.roleGrant.createMany({
      data: [
        { userId: owner.id, role: "CUSTOMER.OWNER", scopeType: "CUSTOMER", scopeId: customer.id },
        { userId: manager.id, role: "CUSTOMER.MANAGER", scopeType: "CUSTOMER", scopeId: customer.id },
      ],
    });
    const [ownerGrants, managerGrants] = await Promise.all([owner, manager].map((u) => grantsOf(db, u.id, new Date())));
    expect(ownerGrants.map((g) => g.projectIds)).toEqual([projects.map((p) => p.id).sort()]);
    expect(managerGrants.map((g) => g.projectIds)).toEqual([[]]);
  });
});
