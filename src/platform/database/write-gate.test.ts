import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../../test/support/app.ts";
import { sleep } from "../../../test/support/ws.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { runWrite } from "./lone-statement.ts";
import { transact } from "./transaction.ts";
import { WriteGate, type Writes } from "./write-gate.ts";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const depsWith = (writes: Writes) => ({ db: t.app.deps.db, pubsub: t.app.deps.pubsub, writes });
const setComment = (id: string, comment: string) => Prisma.sql`UPDATE offering_users SET service_provider_comment = ${comment} WHERE id = ${id}::uuid RETURNING id`;
const commentOf = async (id: string) =>
  (await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id }, select: { serviceProviderComment: true } })).serviceProviderComment;
const never = () => new Promise<never>(() => {});

/** Holds the row's lock in a transaction of its own; resolves with what releases it. */
async function lockRow(id: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = t.app.deps.db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM offering_users WHERE id = ${id}::uuid FOR UPDATE`;
      locked();
      await released;
    },
    { timeout: 60_000 },
  );
  await isLocked;
  return async () => {
    release();
    await holding;
  };
}

async function untilWaitingForLock(timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [{ waiting }] = await t.app.deps.db.$queryRaw<Array<{ waiting: number }>>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (waiting > 0) return;
    await sleep(20);
  }
  throw new Error("nothing waits for the lock");
}

const transactionsLeftOpen = async () =>
  (
    await t.app.deps.db.$queryRaw<Array<{ open: number }>>`
      SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`
  )[0].open;

describe("a scope of the server's writes, closed", () => {
  it("rolls back a transaction whose work has not finished, at once; its connection serves the next write", async () => {
    const { id } = await t.world.offeringUser();
    const scope = t.app.deps.writeGate.scope();
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const stuck = transact(depsWith(scope), async (tx) => {
      await tx.$queryRaw(setComment(id, "stopped"));
      wrote();
      return never();
    });
    await written;
    scope.close();
    await expect(stuck).rejects.toThrow("The server is shutting down; this request was not applied. Retry it.");
    expect(await commentOf(id)).toBe("");
    await transact(depsWith(t.app.deps.writeGate.scope()), (tx) => tx.$queryRaw(setComment(id, "next")));
    expect(await commentOf(id)).toBe("next");
    if (onPostgres) expect(await transactionsLeftOpen()).toBe(0);
  });

  it("refuses writes begun after it closed, in a transaction or alone; other scopes write on", async () => {
    const { id } = await t.world.offeringUser();
    const scope = t.app.deps.writeGate.scope();
    scope.close();
    await expect(transact(depsWith(scope), (tx) => tx.$queryRaw(setComment(id, "refused")))).rejects.toThrow(/shutting down/);
    await expect(runWrite(t.app.deps.db, setComment(id, "refused"), scope)).rejects.toThrow(/shutting down/);
    expect(await commentOf(id)).toBe("");
    await runWrite(t.app.deps.db, setComment(id, "other scope"), t.app.deps.writeGate.scope());
    expect(await commentOf(id)).toBe("other scope");
  });

  it("lets a transaction whose work has finished commit, though it closes while the COMMIT is under way", async () => {
    const { id } = await t.world.offeringUser();
    const scope = t.app.deps.writeGate.scope();
    const committed = transact(depsWith(scope), async (tx) => {
      await tx.$queryRaw(setComment(id, "committed"));
      // Runs after the work's result has reached the commit: the COMMIT is out.
      setImmediate(() => scope.close());
      return "done";
    });
    await expect(committed).resolves.toBe("done");
    expect(await commentOf(id)).toBe("committed");
  });

  it.runIf(onPostgres)("cancels a statement committing alone that waits for a row lock: it never commits", async () => {
    const { id } = await t.world.offeringUser();
    const release = await lockRow(id);
    const scope = t.app.deps.writeGate.scope();
    const waiting = runWrite(t.app.deps.db, setComment(id, "cancelled"), scope);
    await untilWaitingForLock();
    scope.close();
    await expect(waiting).rejects.toThrow(/shutting down/);
    await release();
    expect(await commentOf(id)).toBe("");
  });

  it.runIf(onPostgres)("cancels the statement of a transaction waiting for a row lock and rolls the transaction back", async () => {
    const { id } = await t.world.offeringUser();
    const release = await lockRow(id);
    const scope = t.app.deps.writeGate.scope();
    const waiting = transact(depsWith(scope), (tx) => tx.$queryRaw(setComment(id, "rolled back")));
    await untilWaitingForLock();
    scope.close();
    await expect(waiting).rejects.toThrow(/shutting down/);
    await release();
    expect(await commentOf(id)).toBe("");
    expect(await transactionsLeftOpen()).toBe(0);
  });
});

describe("the server's write gate, closed", () => {
  it("stops the writes of every scope and refuses any after, scoped or not", async () => {
    const { id } = await t.world.offeringUser();
    const gate = new WriteGate(t.app.database.cancelBackend);
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const stuck = transact(depsWith(gate.scope()), async (tx) => {
      await tx.$queryRaw(setComment(id, "stopped"));
      wrote();
      return never();
    });
    await written;
    gate.close();
    await expect(stuck).rejects.toThrow(/shutting down/);
    await expect(runWrite(t.app.deps.db, setComment(id, "refused"), gate.scope())).rejects.toThrow(/shutting down/);
    await expect(runWrite(t.app.deps.db, setComment(id, "refused"), gate)).rejects.toThrow(/shutting down/);
    expect(await commentOf(id)).toBe("");
  });
});
