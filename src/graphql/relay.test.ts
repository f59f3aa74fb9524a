import { isObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { schema } from "../schema.ts";

let t: TestApp;
let ou: { uuid: string };
beforeAll(async () => {
  t = await startTestApp();
  ou = await t.world.offeringUser("OK");
});
afterAll(() => t.close());

const ID_OF = `query($uuid: ID!) { offeringUser(uuid: $uuid) { id uuid } }`;
const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on OfferingUser { uuid state } } }`;

describe("global object identification", () => {
  /** Views that show another object's uuid (or a deleted one's) and are not objects of their own. */
  const VALUES_WITH_A_UUID = [
    "Deletion",
    "OfferingAccount",
    "OfferingUserAttributeConfig",
    "ResourceTeamMember",
    "UserConsentInfo",
  ];

  it("every object type with a uuid is a Node, so caches normalise by id with no per-type keys", () => {
    const withUuid = Object.values(schema.getTypeMap()).filter((type) => isObjectType(type) && type.getFields().uuid);
    const notNodes = withUuid.filter((type) => isObjectType(type) && !type.getInterfaces().some((i) => i.name === "Node"));
    expect(withUuid.length).toBeGreaterThan(20);
    expect(notNodes.map((type) => type.name).sort()).toEqual(VALUES_WITH_A_UUID);
  });

  it("node(id:) returns the object its id names, for a viewer who may see it", async () => {
    const { data } = await t.gql(ID_OF, { uuid: ou.uuid }, t.world.tokens.providerOwner);
    const found = await t.gql(NODE, { id: data.offeringUser.id }, t.world.tokens.providerOwner);
    expect(found.errors).toBeUndefined();
    expect(found.data.node).toEqual({ __typename: "OfferingUser", id: data.offeringUser.id, uuid: ou.uuid, state: "OK" });
  });

  it("ids are stable and differ between objects", async () => {
    const first = await t.gql(ID_OF, { uuid: ou.uuid }, t.world.tokens.staff);
    const again = await t.gql(ID_OF, { uuid: ou.uuid }, t.world.tokens.providerOwner);
    const other = await t.world.offeringUser("OK");
    const otherId = await t.gql(ID_OF, { uuid: other.uuid }, t.world.tokens.staff);
    expect(again.data.offeringUser.id).toBe(first.data.offeringUser.id);
    expect(otherId.data.offeringUser.id).not.toBe(first.data.offeringUser.id);
  });

  it("what the viewer may not see is null, without an error, and without erasing the rest of the response", async () => {
    const { data } = await t.gql(ID_OF, { uuid: ou.uuid }, t.world.tokens.staff);
    const res = await t.gql(`query($id: ID!) { node(id: $id) { id } me { username } }`, { id: data.offeringUser.id }, t.world.tokens.unrelated);
    expect(res.errors).toBeUndefined();
    expect(res.data.node).toBeNull();
    expect(res.data.me.username).toBeTruthy();
  });

  it("nodes(ids:) keeps order and answers null for each id the viewer cannot see", async () => {
    const own = await t.gql(`{ me { id } }`, {}, t.world.tokens.unrelated);
    const { data } = await t.gql(ID_OF, { uuid: ou.uuid }, t.world.tokens.staff);
    const res = await t.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, { ids: [data.offeringUser.id, own.data.me.id] }, t.world.tokens.unrelated);
    expect(res.errors).toBeUndefined();
    expect(res.data.nodes).toEqual([null, { __typename: "User", id: own.data.me.id }]);
  });

  it("a malformed id is a field error naming `id`", async () => {
    const res = await t.gql(NODE, { id: "not-a-global-id" }, t.world.tokens.staff);
    expect(res.errors?.[0].extensions).toMatchObject({ code: "VALIDATION", fields: { id: ["Not a valid global id."] } });
  });

  it("an id naming a type that is not a node, or a missing object, is null", async () => {
    const fake = Buffer.from("OfferingUser:00000000-0000-0000-0000-000000000000").toString("base64");
    const res = await t.gql(NODE, { id: fake }, t.world.tokens.staff);
    expect(res.errors).toBeUndefined();
    expect(res.data.node).toBeNull();
  });
});

describe("Relay connections, forward and backward", () => {
  const PAGE = `query($first: Int, $after: String, $last: Int, $before: String, $filter: OfferingUserFilter) {
    offeringUsers(first: $first, after: $after, last: $last, before: $before, filter: $filter, orderBy: [CREATED_ASC]) {
      totalCount edges { cursor node { uuid } } nodes { uuid }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
  let offering: string;
  const made: string[] = [];

  beforeAll(async () => {
    const db = t.app.deps.db;
    const created = await db.offering.create({ data: { customerId: t.world.provider.id, name: "Paged", type: "Marketplace.Basic", state: "ACTIVE" } });
    offering = created.id;
    for (let i = 0; i < 5; i++) {
      const user = await db.user.create({ data: { username: `relay${i}` } });
      const row = await db.offeringUser.create({ data: { offeringId: created.id, userId: user.id, created: new Date(Date.UTC(2025, 0, i + 1)) } });
      made.push(row.id.replaceAll("-", ""));
    }
  });

  const page = async (args: Record<string, unknown>) => {
    const res = await t.gql(PAGE, { ...args, filter: { offeringUuid: [offering] } }, t.world.tokens.staff);
    expect(res.errors).toBeUndefined();
    return res.data.offeringUsers;
  };

  it("last: n is the end of the list", async () => {
    const tail = await page({ last: 2 });
    expect(tail.nodes.map((n: { uuid: string }) => n.uuid)).toEqual(made.slice(3));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(tail.totalCount).toBe(5);
  });

  it("last/before pages back from a cursor; first/after forward again, to the same items", async () => {
    const tail = await page({ last: 2 });
    const before = await page({ last: 2, before: tail.pageInfo.startCursor });
    expect(before.nodes.map((n: { uuid: string }) => n.uuid)).toEqual(made.slice(1, 3));
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const forward = await page({ first: 2, after: before.pageInfo.endCursor });
    expect(forward.edges.map((e: { node: { uuid: string } }) => e.node.uuid)).toEqual(made.slice(3));
  });

  it("after and before together narrow the list before first or last apply, as the Relay spec says", async () => {
    const all = await page({ first: 5 });
    const cursors = all.edges.map((e: { cursor: string }) => e.cursor);
    const window = await page({ after: cursors[0], before: cursors[4] });
    expect(window.nodes.map((n: { uuid: string }) => n.uuid)).toEqual(made.slice(1, 4));
    const lastOfWindow = await page({ after: cursors[0], before: cursors[4], last: 1 });
    expect(lastOfWindow.nodes.map((n: { uuid: string }) => n.uuid)).toEqual([made[3]]);
  });

  it("last larger than the list returns it all; last: 0 returns nothing", async () => {
    expect((await page({ last: 50 })).nodes).toHaveLength(5);
    expect((await page({ last: 0 })).nodes).toEqual([]);
  });

  it("a negative last, or a cursor that is not ours, is a field error", async () => {
    const negative = await t.gql(PAGE, { last: -1 }, t.world.tokens.staff);
    expect(negative.errors?.[0].extensions).toMatchObject({ code: "VALIDATION", fields: { last: ["Must be zero or more."] } });
    const foreign = await t.gql(PAGE, { before: "bm9wZQ" }, t.world.tokens.staff);
    expect(foreign.errors?.[0].extensions).toMatchObject({ code: "VALIDATION", fields: { before: ["Invalid cursor."] } });
  });
});

describe("one uuid spelling", () => {
  const DASHED = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
  const PAGE = `{
    offeringUsers(first: 5) { nodes { id uuid user { id uuid } offering { id uuid customer { id uuid } } } }
    orders(first: 5) { nodes { id uuid project { id uuid } offering { id uuid } } }
    events(first: 20) { nodes { id eventId context subject { id } } }
  }`;

  it("a global id holds the uuid as the uuid field spells it (32 hex characters), and no answer holds a dashed uuid", async () => {
    const { data, errors } = await t.gql(PAGE, {}, t.world.tokens.staff);
    expect(errors).toBeUndefined();
    expect(JSON.stringify(data)).not.toMatch(DASHED);
    const objects = [...data.offeringUsers.nodes, ...data.offeringUsers.nodes.flatMap((n: any) => [n.user, n.offering, n.offering.customer]), ...data.orders.nodes];
    expect(objects.length).toBeGreaterThan(3);
    for (const object of objects) expect(Buffer.from(object.id, "base64").toString().split(":")[1]).toBe(object.uuid);
  });

  it("an id of the earlier dashed form still names its object", async () => {
    const dashed = Buffer.from(`OfferingUser:${ou.uuid.replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-")}`).toString("base64");
    const found = await t.gql(NODE, { id: dashed }, t.world.tokens.providerOwner);
    expect(found.data.node).toMatchObject({ __typename: "OfferingUser", uuid: ou.uuid });
  });
});
