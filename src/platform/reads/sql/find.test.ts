/**
 * The read entry points every service calls (find.ts): records by a unique key, one row or null, findUniques of one
 * tick batched into one statement, and reads inside a transaction on its connection.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readsDatabase, type ReadData } from "../../../../test/support/sql-reads-data.ts";
import { countSql } from "../../../../test/support/sql-counter.ts";
import type { Db } from "../../database/connect.ts";
import { compileFind, findFirst, findUnique, findUniqueOrThrow } from "./find.ts";

let database: Awaited<ReturnType<typeof readsDatabase>>["database"];
let db: Db;
let ids: ReadData;

beforeAll(async () => {
  ({ database, db, ids } = await readsDatabase());
}, 60_000);
afterAll(() => database?.drop());

describe("records", () => {
  it("findUnique takes a compound unique key or id", async () => {
    const byKey = { offeringId_userId: { offeringId: ids.managed.id, userId: ids.users[1].id } };
    expect(compileFind("offeringUser", { where: byKey }, 1, true)).toBeDefined();
    expect(await findUnique(db, "offeringUser", { where: byKey })).toEqual(await db.offeringUser.findUnique({ where: byKey }));
    const byId = { eventId_scopeType_scopeId: { eventId: ids.event.id, scopeType: "OFFERING" as const, scopeId: ids.managed.id } };
    expect(await findUnique(db, "eventScope", { where: byId })).toEqual(await db.eventScope.findUnique({ where: byId }));
    expect(await findUnique(db, "eventScope", { where: byId, select: { scopeId: true } })).toEqual({ scopeId: ids.managed.id });
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
