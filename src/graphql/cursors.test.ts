/**
 * Keyset cursors over GraphQL: a client paging a live list, forward (`first`/`after`) or backward (`last`/`before`),
 * sees every row that stays in the list exactly once, in order, while rows are inserted and deleted between its pages
 * (the row its cursor names included); `pageInfo` is right at both ends; a cursor of another list is refused. Runs on
 * in-memory PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { parseUuid, toHex } from "../platform/ids.ts";

let t: TestApp;
let staff: string;
beforeAll(async () => {
  t = await startTestApp();
  staff = t.world.tokens.staff;
});
afterAll(() => t.close());

interface Page {
  totalCount: number;
  nodes: Array<{ uuid: string }>;
  edges: Array<{ cursor: string; node: { uuid: string } }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

const SELECTION = `totalCount nodes { uuid } edges { cursor node { uuid } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;
const PAGING = `$first: Int, $after: String, $last: Int, $before: String, $offset: Int`;
const PAGE_ARGS = `first: $first, after: $after, last: $last, before: $before, offset: $offset`;
const OFFERING_USERS = `query(${PAGING}, $filter: OfferingUserFilter, $orderBy: [OfferingUserOrder!]) {
  list: offeringUsers(${PAGE_ARGS}, filter: $filter, orderBy: $orderBy) { ${SELECTION} } }`;
const ORDERS = `query(${PAGING}, $filter: OrderFilter, $orderBy: [OrderOrder!]) { list: orders(${PAGE_ARGS}, filter: $filter, orderBy: $orderBy) { ${SELECTION} } }`;
const EVENTS = `query(${PAGING}, $filter: EventFilter, $orderBy: EventOrder) { list: events(${PAGE_ARGS}, filter: $filter, orderBy: $orderBy) { ${SELECTION} } }`;

type Variables = Record<string, unknown>;
type Direction = "forward" | "backward";

async function gql(document: string, variables: Variables) {
  return t.gql<{ list: Page }>(document, variables, staff);
}

async function page(document: string, variables: Variables): Promise<Page> {
  const res = await gql(document, variables);
  expect(res.errors).toBeUndefined();
  return res.data!.list;
}

const uuids = (p: Page) => p.nodes.map((node) => node.uuid);
const wholeList = async (document: string, variables: Variables) => uuids(await page(document, { ...variables, first: 300 }));

/**
 * Pages through a list `size` rows at a time, forward or backward, calling `between` after each page but the last;
 * answers the uuids seen, in the list's order.
 */
async function walk(document: string, variables: Variables, direction: Direction, size: number, between: (index: number, p: Page) => Promise<void>) {
  const pages: string[][] = [];
  let cursor: string | null = null;
  for (let index = 0; ; index++) {
    const p = await page(document, direction === "forward" ? { ...variables, first: size, after: cursor } : { ...variables, last: size, before: cursor });
    expect(p.edges.map((edge) => edge.node.uuid)).toEqual(uuids(p));
    expect(p.nodes.length).toBeLessThanOrEqual(size);
    pages.push(uuids(p));
    if (!(direction === "forward" ? p.pageInfo.hasNextPage : p.pageInfo.hasPreviousPage)) break;
    expect(index, "the walk ends").toBeLessThan(50);
    await between(index, p);
    cursor = direction === "forward" ? p.pageInfo.endCursor : p.pageInfo.startCursor;
  }
  return (direction === "forward" ? pages : pages.reverse()).flat();
}

/** The changes made to a list while a client walks it, and what the walk must then have seen. */
class LiveList {
  readonly stayed = new Set<string>();
  readonly insertedAhead: string[] = [];
  readonly insertedBehind: string[] = [];
  readonly deletedUnseen: string[] = [];

  constructor(initial: string[], private readonly remove: (uuid: string) => Promise<unknown>) {
    initial.forEach((uuid) => this.stayed.add(uuid));
  }

  /** Deletes a row the walk has seen already (its cursor's row, say). */
  async deleteSeen(uuid: string) {
    this.stayed.delete(uuid);
    await this.remove(uuid);
  }

  /** Deletes a row the walk has yet to reach. */
  async deleteAhead(uuid: string) {
    this.stayed.delete(uuid);
    if (this.insertedAhead.includes(uuid)) this.insertedAhead.splice(this.insertedAhead.indexOf(uuid), 1);
    this.deletedUnseen.push(uuid);
    await this.remove(uuid);
  }

  expectSeenBy(seen: string[], finalList: string[]) {
    expect(new Set(seen).size, "no row is repeated").toBe(seen.length);
    expect(seen, "no row that stayed in the list is skipped, no row inserted ahead is missed").toEqual(expect.arrayContaining([...this.stayed, ...this.insertedAhead]));
    for (const uuid of [...this.insertedBehind, ...this.deletedUnseen]) expect(seen, "rows inserted behind or deleted ahead are not seen").not.toContain(uuid);
    const [inFinal, inSeen] = [new Set(finalList), new Set(seen)];
    expect(seen.filter((uuid) => inFinal.has(uuid)), "in the list's order").toEqual(finalList.filter((uuid) => inSeen.has(uuid)));
  }
}

/** The uuid that follows `uuid` in `list`, in the direction of the walk. */
const nextOf = (list: string[], uuid: string, direction: Direction) => list[list.indexOf(uuid) + (direction === "forward" ? 1 : -1)];

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
    const seen = await walk(OFFERING_USERS, variables, "forward", 3, async (index, p) => {
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
    const seen = await walk(OFFERING_USERS, custom, "backward", 4, async (index, p) => {
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

describe("orders", () => {
  let offering: { id: string; uuid: string };

  async function add(created: Date, extra: { consumerReviewedAt?: Date; planId?: string } = {}) {
    const { db } = t.app.deps;
    const order = await db.order.create({ data: { offeringId: offering.id, projectId: t.world.project.id, state: "PENDING_PROVIDER", created, ...extra } });
    return toHex(order.id);
  }
  const remove = (uuid: string) => t.app.deps.db.order.delete({ where: { id: parseUuid(uuid)! } });
  const day = (n: number) => new Date(Date.UTC(2025, 5, 1 + n));

  beforeAll(async () => {
    const row = await t.app.deps.db.offering.create({ data: { customerId: t.world.provider.id, name: "Order cursors", type: "Marketplace.Basic", state: "ACTIVE" } });
    offering = { id: row.id, uuid: toHex(row.id) };
  });

  it("forward, newest first (the default): new orders on top are behind, deletes on either side neither repeat nor skip", async () => {
    const initial = [];
    for (let i = 0; i < 9; i++) initial.push(await add(day(i % 3 === 0 ? 0 : i)));
    const live = new LiveList(initial, remove);
    const variables = { filter: { offeringUuid: [offering.uuid] } };
    const seen = await walk(ORDERS, variables, "forward", 2, async (index, p) => {
      if (index === 0) live.insertedBehind.push(await add(day(30)));
      if (index === 1) {
        const cursorRow = uuids(p)[1];
        await live.deleteAhead(nextOf(await wholeList(ORDERS, variables), cursorRow, "forward"));
        await live.deleteSeen(cursorRow);
        live.insertedAhead.push(await add(day(-5)));
      }
    });
    live.expectSeenBy(seen, await wholeList(ORDERS, variables));
  });

  it("backward by a nullable column (consumer_reviewed_at ascending, nulls last) and by a plan's price (a relation that may be missing)", async () => {
    const plan = await t.app.deps.db.offeringPlan.create({ data: { offeringId: offering.id, name: "Priced", unitPrice: 3 } });
    for (const orderBy of [["CONSUMER_REVIEWED_AT_ASC"], ["COST_DESC", "CREATED_ASC"]]) {
      const initial = [];
      for (let i = 0; i < 8; i++) initial.push(await add(day(i), { ...(i % 3 ? { consumerReviewedAt: day(i % 4) } : {}), ...(i % 2 ? { planId: plan.id } : {}) }));
      const live = new LiveList(initial, remove);
      const variables = { filter: { offeringUuid: [offering.uuid] }, orderBy };
      const seen = await walk(ORDERS, variables, "backward", 3, async (index, p) => {
        if (index === 0) {
          await live.deleteSeen(uuids(p)[0]);
          live.insertedAhead.push(await add(day(-10), { consumerReviewedAt: day(-10), planId: plan.id }));
        }
      });
      live.expectSeenBy(seen, await wholeList(ORDERS, variables));
      for (const uuid of await wholeList(ORDERS, variables)) await remove(uuid);
    }
  });
});

describe("events", () => {
  let counter = 0;
  const TYPE = "cursor_test_event";
  const variables = { filter: { eventType: [TYPE] } };

  async function add(created: Date) {
    const event = await t.app.deps.db.event.create({ data: { eventType: TYPE, message: `event ${++counter}`, created } });
    return toHex(event.uuid);
  }
  const remove = (uuid: string) => t.app.deps.db.event.delete({ where: { uuid: parseUuid(uuid)! } });

  it("forward and backward, newest first and oldest first: events sharing their time keep their id order", async () => {
    for (const [direction, orderBy] of [["forward", "CREATED_DESC"], ["backward", "CREATED_ASC"], ["forward", "CREATED_ASC"]] as const) {
      const initial = [];
      // Events of one transaction share their time.
      for (let i = 0; i < 8; i++) initial.push(await add(new Date(Date.UTC(2025, 0, 1 + Math.floor(i / 3)))));
      const live = new LiveList(initial, remove);
      const listed = { ...variables, orderBy };
      const seen = await walk(EVENTS, listed, direction, 2, async (index, p) => {
        const cursorRow = direction === "forward" ? uuids(p).at(-1)! : uuids(p)[0];
        if (index === 0) {
          // The newest event is at the top of a list newest first, at its end otherwise.
          const newest = await add(new Date(Date.UTC(2026, 0, 1)));
          const atTheWalksStart = (orderBy === "CREATED_DESC") === (direction === "forward");
          (atTheWalksStart ? live.insertedBehind : live.insertedAhead).push(newest);
          await live.deleteSeen(cursorRow);
        } else if (index === 1) {
          await live.deleteAhead(nextOf(await wholeList(EVENTS, listed), cursorRow, direction));
        }
      });
      live.expectSeenBy(seen, await wholeList(EVENTS, listed));
      for (const uuid of await wholeList(EVENTS, listed)) await remove(uuid);
    }
  });
});
