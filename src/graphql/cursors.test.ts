/**
 * Keyset cursors over GraphQL: a client paging a live list of offering users, forward (`first`/`after`) or backward
 * (`last`/`before`), sees every row that stays in the list exactly once, in order, while rows are inserted and deleted
 * between its pages (the row its cursor names included); `pageInfo` is right at both ends; a cursor of another list
 * is refused. Other lists: cursors-lists.test.ts. Runs on in-memory PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { LiveList, nextOf, OFFERING_USERS, ORDERS, pager, uuids, type Variables } from "../../test/support/live-list.ts";
import { parseUuid, toHex } from "../platform/ids.ts";

let t: TestApp;
let client: ReturnType<typeof pager>;
beforeAll(async () => {
  t = await startTestApp();
  client = pager(t, t.world.tokens.staff);
});
afterAll(() => t.close());

const page = (document: string, variables: Variables) => client.page(document, variables);
const wholeList = (document: string, variables: Variables) => client.wholeList(document, variables);
const gql = (document: string, variables: Variables) => client.gql(document, variables);

describe("offering users", () => {
  let offeringId: string;
  let variables: Variables;
  let counter = 0;

  /** An offering user of the list's own offering (each of a user of its own): its uuid. */
  async function add(username: string | null, created = new Date(Date.UTC(2025, 0, 1, 0, ++counter))) {
    const db = t.app.deps.db;
    const user = await db.user.create({ data: { username: `cursor-user-${++counter}` } });
    return toHex((await db.offeringUser.create({ data: { offeringId, userId: user.id, username, created } })).id);
  }
  const remove = (uuid: string) => t.app.deps.db.offeringUser.delete({ where: { id: parseUuid(uuid)! } });

  /** A fresh offering with users named `usernames` (created in that order), as the list `variables` filter. */
  async function listOf(usernames: Array<string | null>) {
    const offering = await t.app.deps.db.offering.create({ data: { customerId: t.world.provider.id, name: "Cursors", type: "Marketplace.Basic", state: "ACTIVE" } });
    offeringId = offering.id;
    variables = { filter: { offeringUuid: [toHex(offering.id)] } };
    const initial: string[] = [];
    for (const username of usernames) initial.push(await add(username));
    return new LiveList(initial, remove);
  }

  it("forward in the default order (username, nulls last, then created): inserts and deletes between pages, the cursor's own row too", async () => {
    const live = await listOf(["m0", "m1", "m1", "m2", "m3", "m4", "m5", null, "m6", null]);
    const seen = await client.walk(OFFERING_USERS, variables, "forward", 3, async (index, p) => {
      if (index === 0) {
        live.insertedBehind.push(await add("a-top"));
        live.insertedAhead.push(await add("m9"));
        await live.deleteSeen(uuids(p)[0]);
      } else if (index === 1) {
        const cursorRow = uuids(p)[2];
        const next = nextOf(await wholeList(OFFERING_USERS, variables), cursorRow, "forward");
        await live.deleteSeen(cursorRow);
        await live.deleteAhead(next);
      } else if (index === 2) {
        live.insertedAhead.push(await add(null, new Date(Date.UTC(2030, 0, 1))));
        live.insertedBehind.push(await add("m0"));
      }
    });
    live.expectSeenBy(seen, await wholeList(OFFERING_USERS, variables));
  });

  it("backward in a custom order (username descending, nulls first; then modified ascending): inserts and deletes between pages", async () => {
    const live = await listOf([null, "k0", "k1", null, "k1", "k2", "k3", "k4", "k5", "k6", null]);
    const custom = { ...variables, orderBy: ["USERNAME_DESC", "MODIFIED_ASC"] };
    const seen = await client.walk(OFFERING_USERS, custom, "backward", 4, async (index, p) => {
      const cursorRow = uuids(p)[0];
      if (index === 0) {
        live.insertedBehind.push(await add("a-end"));
        live.insertedAhead.push(await add(null));
        await live.deleteSeen(cursorRow);
      } else if (index === 1) {
        await live.deleteAhead(nextOf(await wholeList(OFFERING_USERS, custom), cursorRow, "backward"));
        live.insertedAhead.push(await add("zz"));
        live.insertedBehind.push(await add("k3"));
      }
    });
    live.expectSeenBy(seen, await wholeList(OFFERING_USERS, custom));
  });

  it("pages by offset are positional: a row inserted before them repeats the previous page's last row", async () => {
    await listOf(["p0", "p1", "p2", "p3", "p4", "p5"]);
    const first = await page(OFFERING_USERS, { ...variables, first: 3, offset: 0 });
    await add("a-top");
    const second = await page(OFFERING_USERS, { ...variables, first: 3, offset: 3 });
    expect(uuids(second)[0]).toBe(uuids(first)[2]);
    const byCursor = await page(OFFERING_USERS, { ...variables, first: 3, after: first.pageInfo.endCursor });
    expect(uuids(byCursor)).not.toContain(uuids(first)[2]);
    expect(byCursor.nodes).toHaveLength(3);
  });

  it("pageInfo at both ends, forward and backward, and on an empty list", async () => {
    await listOf(["e0", "e1", "e2", "e3", "e4"]);
    const all = await wholeList(OFFERING_USERS, variables);
    const start = await page(OFFERING_USERS, { ...variables, first: 2 });
    expect(start.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true, startCursor: start.edges[0].cursor, endCursor: start.edges[1].cursor });
    const end = await page(OFFERING_USERS, { ...variables, first: 3, after: start.pageInfo.endCursor });
    expect(uuids(end)).toEqual(all.slice(2));
    expect(end.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const past = await page(OFFERING_USERS, { ...variables, first: 3, after: end.pageInfo.endCursor });
    expect(past).toMatchObject({ nodes: [], totalCount: 5, pageInfo: { hasPreviousPage: true, hasNextPage: false, startCursor: null, endCursor: null } });

    const tail = await page(OFFERING_USERS, { ...variables, last: 2 });
    expect(uuids(tail)).toEqual(all.slice(3));
    expect(tail.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const head = await page(OFFERING_USERS, { ...variables, last: 5, before: tail.pageInfo.startCursor });
    expect(uuids(head)).toEqual(all.slice(0, 3));
    expect(head.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    const whole = await page(OFFERING_USERS, { ...variables, first: 5 });
    expect(whole.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: false });

    await listOf([]);
    const empty = await page(OFFERING_USERS, variables);
    expect(empty).toMatchObject({ totalCount: 0, nodes: [], pageInfo: { hasPreviousPage: false, hasNextPage: false, startCursor: null, endCursor: null } });
  });

  it("totalCount is the whole filtered list's size whatever the cursor", async () => {
    await listOf(["c0", "c1", "c2", "c3"]);
    const start = await page(OFFERING_USERS, { ...variables, first: 1 });
    const rest = await page(OFFERING_USERS, { ...variables, first: 1, after: start.pageInfo.endCursor });
    const back = await page(OFFERING_USERS, { ...variables, last: 1, before: rest.pageInfo.startCursor });
    expect([start.totalCount, rest.totalCount, back.totalCount]).toEqual([4, 4, 4]);
    expect(uuids(back)).toEqual(uuids(start));
  });

  it("a malformed cursor, an offset one of old, one of another filter or order, or one with a tampered key: a VALIDATION error naming the argument", async () => {
    await listOf(["v0", "v1", "v2"]);
    const { endCursor } = (await page(OFFERING_USERS, { ...variables, first: 1 })).pageInfo;
    const refusal = async (extra: Variables) => (await gql(OFFERING_USERS, { ...variables, ...extra })).errors?.[0].extensions;
    const invalid = (argument: string) => ({ code: "VALIDATION", fields: { [argument]: ["Invalid cursor."] } });
    const foreign = (argument: string) => ({ code: "VALIDATION", fields: { [argument]: ["This cursor belongs to another order or filter of the list."] } });

    expect(await refusal({ after: "not a cursor" })).toMatchObject(invalid("after"));
    expect(await refusal({ before: Buffer.from("OffsetConnection:1").toString("base64") })).toMatchObject(invalid("before"));
    const payload = JSON.parse(Buffer.from(endCursor!, "base64url").toString());
    const tampered = (k: unknown[]) => Buffer.from(JSON.stringify({ ...payload, k })).toString("base64url");
    expect(await refusal({ after: tampered([payload.k[0], payload.k[1], "not-a-uuid"]) })).toMatchObject(invalid("after"));
    expect(await refusal({ after: tampered([payload.k[0], "yesterday", payload.k[2]]) })).toMatchObject(invalid("after"));
    expect(await refusal({ after: tampered(payload.k.slice(1)) })).toMatchObject(invalid("after"));
    expect(await refusal({ after: endCursor, orderBy: ["CREATED_DESC"] })).toMatchObject(foreign("after"));
    expect(await refusal({ before: endCursor, filter: { ...(variables.filter as object), state: ["OK"] } })).toMatchObject(foreign("before"));
    expect((await gql(ORDERS, { after: endCursor })).errors?.[0].extensions).toMatchObject(foreign("after"));
    expect(await refusal({ after: endCursor, offset: 1 })).toMatchObject({ code: "VALIDATION", fields: { offset: ["A page by position takes no after."] } });
    // The same filter written in another key order, and the default order named, are the same list.
    expect(await refusal({ after: endCursor, orderBy: ["USERNAME_ASC"], filter: { offeringUuid: (variables.filter as { offeringUuid: string[] }).offeringUuid, state: null } })).toBeUndefined();
  });
});
