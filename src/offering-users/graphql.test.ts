import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { countSql } from "../../test/support/sql-counter.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { toHex } from "../platform/ids.ts";

let t: TestApp;
let owner: string;
/** Five records of a dedicated offering, oldest first, in these states. */
const STATES: OfferingUserState[] = ["OK", "OK", "CREATING", "OK", "ERROR_CREATING"];
const five: string[] = [];
let fiveOffering: string;
let thirtyOffering: string;

async function offeringWith(name: string, count: number, state: (i: number) => OfferingUserState) {
  const db = t.app.deps.db;
  const offering = await db.offering.create({
    data: { customerId: t.world.provider.id, name, type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: { service_provider_can_create_offering_user: true } },
  });
  const uuids: string[] = [];
  for (let i = 0; i < count; i++) {
    const user = await db.user.create({ data: { username: `${name}-${i}`, email: `${name}-${i}@example.org` } });
    const ou = await db.offeringUser.create({
      data: { offeringId: offering.id, userId: user.id, state: state(i), created: new Date(Date.UTC(2024, 0, i + 1)) },
    });
    uuids.push(toHex(ou.id));
  }
  return { uuid: toHex(offering.id), uuids };
}

beforeAll(async () => {
  // The token and roles stay cached for the whole file, so a request's statements are its own on a loaded machine too.
  t = await startTestApp({ tokenCacheMs: 3_600_000 });
  owner = t.world.tokens.providerOwner;
  const small = await offeringWith("five", 5, (i) => STATES[i]);
  fiveOffering = small.uuid;
  five.push(...small.uuids);
  thirtyOffering = (await offeringWith("thirty", 30, () => "OK")).uuid;
});
afterAll(() => t.close());

const LIST = `query($filter: OfferingUserFilter, $orderBy: [OfferingUserOrder!], $first: Int, $after: String) {
  offeringUsers(filter: $filter, orderBy: $orderBy, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { uuid } }
    nodes { uuid state runtimeState }
  } }`;

describe("offeringUsers", () => {
  it("filters, orders and pages with cursors; edges and nodes agree", async () => {
    const filter = { offeringUuid: [fiveOffering], state: ["OK"] };
    const first = await t.gql(LIST, { filter, orderBy: ["CREATED_DESC"], first: 2 }, owner);
    expect(first.errors).toBeUndefined();
    const page1 = first.data.offeringUsers;
    expect(page1.totalCount).toBe(3);
    expect(page1.nodes).toEqual([
      { uuid: five[3], state: "OK", runtimeState: "ACTIVE" },
      { uuid: five[1], state: "OK", runtimeState: "ACTIVE" },
    ]);
    expect(page1.edges.map((e: { node: { uuid: string } }) => e.node.uuid)).toEqual([five[3], five[1]]);
    expect(page1.pageInfo).toEqual({
      hasNextPage: true, hasPreviousPage: false, startCursor: page1.edges[0].cursor, endCursor: page1.edges[1].cursor,
    });

    const second = await t.gql(LIST, { filter, orderBy: ["CREATED_DESC"], first: 2, after: page1.pageInfo.endCursor }, owner);
    const page2 = second.data.offeringUsers;
    expect(page2.nodes.map((n: { uuid: string }) => n.uuid)).toEqual([five[0]]);
    expect(page2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(page2.edges[0].cursor).not.toBe(page1.edges[1].cursor);
  });

  it("without first it returns 10 at most; totalCount counts all", async () => {
    const res = await t.gql(LIST, { filter: { offeringUuid: [thirtyOffering] } }, owner);
    expect(res.data.offeringUsers.totalCount).toBe(30);
    expect(res.data.offeringUsers.nodes).toHaveLength(10);
  });

  it("a bad uuid in the filter or a bad cursor → VALIDATION with fields named as GraphQL names them", async () => {
    const bad = await t.gql(LIST, { filter: { providerUuid: "xyz" } }, owner);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: "VALIDATION", fields: { providerUuid: ["“xyz” is not a valid UUID."] } });
    const cursor = await t.gql(LIST, { after: "bm9wZQ" }, owner);
    expect(cursor.errors?.[0].extensions).toMatchObject({ code: "VALIDATION", fields: { after: ["Invalid cursor."] } });
  });

  it("anonymous → UNAUTHENTICATED", async () => {
    const res = await t.gql(LIST, {});
    expect(res.errors?.[0]).toMatchObject({ message: "Authentication credentials were not provided.", extensions: { code: "UNAUTHENTICATED" } });
  });
});

const ONE = `query($uuid: ID!) { offeringUser(uuid: $uuid) { uuid state offering { uuid name customer { name } } user { username } } }`;

describe("offeringUser", () => {
  it("returns the record with its relations", async () => {
    const res = await t.gql(ONE, { uuid: five[2] }, owner);
    expect(res.data.offeringUser).toEqual({
      uuid: five[2], state: "CREATING", offering: { uuid: fiveOffering, name: "five", customer: { name: "Provider Org" } }, user: { username: "five-2" },
    });
  });

  it("an unknown, malformed or invisible uuid → null, without an error that would fail the rest of the query", async () => {
    for (const [uuid, token] of [["0123456789abcdef0123456789abcdef", owner], ["nope", owner], [five[2], t.world.tokens.unrelated]]) {
      const res = await t.gql(`query($uuid: ID!) { offeringUser(uuid: $uuid) { uuid } me { username } }`, { uuid }, token);
      expect(res.errors).toBeUndefined();
      expect(res.data.offeringUser).toBeNull();
      expect(res.data.me.username).toBeTruthy();
    }
  });
});

describe("mutations return the record or a typed failure", () => {
  const BEGIN = `mutation($id: ID!) {
    beginCreatingOfferingUser(input: { id: $id }) { ... on OfferingUser { uuid state serviceProviderComment } ${failuresOf("beginCreatingOfferingUser")} } }`;

  it("a transition returns the moved record", async () => {
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const res = await t.gql(BEGIN, { id: globalId("OfferingUser", ou.uuid) }, owner);
    expect(res).toEqual({ data: { beginCreatingOfferingUser: { uuid: ou.uuid, state: "CREATING", serviceProviderComment: "" } } });
  });

  it("from a wrong state → OfferingUserTransitionError naming the states, the current state and those allowed as enum values; REST keeps Waldur's integer", async () => {
    const ou = await t.world.offeringUser("OK");
    const res = await t.gql(BEGIN, { id: globalId("OfferingUser", ou.uuid) }, owner);
    expect(res.errors).toBeUndefined();
    expect(res.data.beginCreatingOfferingUser).toEqual({
      __typename: "OfferingUserTransitionError",
      code: "INVALID_TRANSITION",
      message: "Cannot transition to Creating from current state: OK. Valid states for operation: Requested, Error creating.",
      currentState: "OK",
      allowedFrom: ["CREATION_REQUESTED", "ERROR_CREATING"],
    });
    const rest = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token: owner });
    expect([rest.status, rest.body]).toEqual([400, { detail: "Cannot transition to Creating from current state: 5. Valid states for operation: Requested, Error creating." }]);
  });

  it("visible without UPDATE_OFFERING_USER → PermissionDeniedError; invisible → NotFoundError; nothing changes", async () => {
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    expect((await t.gql(BEGIN, { id: globalId("OfferingUser", ou.uuid) }, t.world.tokens.support)).data.beginCreatingOfferingUser).toMatchObject({
      __typename: "PermissionDeniedError", code: "FORBIDDEN",
    });
    expect((await t.gql(BEGIN, { id: globalId("OfferingUser", ou.uuid) }, t.world.tokens.unrelated)).data.beginCreatingOfferingUser).toEqual({
      __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found.",
    });
    const notFound = { __typename: "NotFoundError", code: "NOT_FOUND", message: "Not found." };
    for (const id of [globalId("User", toHex(ou.userId)), globalId("OfferingUser", "0123456789abcdef0123456789abcdef"), "nope"]) {
      expect((await t.gql(BEGIN, { id }, owner)).data.beginCreatingOfferingUser).toEqual(notFound);
    }
    expect((await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } })).state).toBe("CREATION_REQUESTED");
  });

  it("a comment URL that is not a URL → ValidationError naming the input field", async () => {
    const ou = await t.world.offeringUser("CREATING");
    const res = await t.gql(
      `mutation($id: ID!) {
        setPendingAccountLinkingOfferingUser(input: { id: $id, comment: "x", commentUrl: "nope" }) { ... on OfferingUser { uuid } ${failuresOf("setPendingAccountLinkingOfferingUser")} } }`,
      { id: globalId("OfferingUser", ou.uuid) },
      owner,
    );
    expect(res.data.setPendingAccountLinkingOfferingUser).toEqual({
      __typename: "ValidationError", code: "VALIDATION", message: "Enter a valid URL.", fields: [{ path: "commentUrl", message: "Enter a valid URL." }],
    });
  });

  it("createOfferingUser returns the record; a duplicate → ValidationError about the whole input", async () => {
    const user = await t.app.deps.db.user.create({ data: { username: "gql-create" } });
    const CREATE = `mutation($input: CreateOfferingUserInput!) {
      createOfferingUser(input: $input) { ... on OfferingUser { state username offering { name } user { username } } ${failuresOf("createOfferingUser")} } }`;
    const input = { offeringUuid: t.world.offering.uuid, userUuid: toHex(user.id), username: "gc" };
    const created = await t.gql(CREATE, { input }, owner);
    expect(created.data.createOfferingUser).toEqual({ state: "OK", username: "gc", offering: { name: "HPC" }, user: { username: "gql-create" } });
    const again = await t.gql(CREATE, { input }, owner);
    expect(fieldsOf(again.data.createOfferingUser)).toEqual({ input: ["The fields offering, user must make a unique set."] });
  });

  it("updateOfferingUser, updateOfferingUserComments and deleteOfferingUser", async () => {
    const ou = await t.world.offeringUser("PENDING_ADDITIONAL_VALIDATION", { comment: "Upload ID" });
    const updated = await t.gql(
      `mutation($id: ID!) { updateOfferingUser(input: { id: $id, username: "ada" }) { ... on OfferingUser { username state serviceProviderComment } } }`,
      { id: globalId("OfferingUser", ou.uuid) },
      owner,
    );
    expect(updated.data.updateOfferingUser).toEqual({ username: "ada", state: "OK", serviceProviderComment: "" });

    const id = globalId("OfferingUser", ou.uuid);
    const COMMENT = `mutation($id: ID!) {
      updateOfferingUserComments(input: { id: $id, serviceProviderComment: "<b>hi</b><script>x</script>" }) { ... on OfferingUser { serviceProviderComment state } } }`;
    expect((await t.gql(COMMENT, { id }, owner)).data.updateOfferingUserComments).toEqual({ serviceProviderComment: "<b>hi</b>", state: "OK" });

    const DELETE = `mutation($id: ID!) { deleteOfferingUser(input: { id: $id }) { ... on Deletion { uuid deletedId } ${failuresOf("deleteOfferingUser")} } }`;
    expect((await t.gql(DELETE, { id }, t.world.tokens.projectAdmin)).data.deleteOfferingUser).toMatchObject({
      __typename: "PermissionDeniedError", message: "You do not have permission to delete this user.",
    });
    const { data } = await t.gql(`query($uuid: ID!) { offeringUser(uuid: $uuid) { id } }`, { uuid: ou.uuid }, owner);
    expect(data.offeringUser.id).toBe(id);
    expect((await t.gql(DELETE, { id }, owner)).data).toEqual({ deleteOfferingUser: { uuid: ou.uuid, deletedId: data.offeringUser.id } });
    expect((await t.gql(DELETE, { id }, owner)).data.deleteOfferingUser.__typename).toBe("NotFoundError");
  });

  it("updateOfferingUserComments on a Deleted record → PermissionDeniedError", async () => {
    const ou = await t.world.offeringUser("DELETED");
    const res = await t.gql(
      `mutation($id: ID!) { updateOfferingUserComments(input: { id: $id, serviceProviderComment: "x" }) { ... on OfferingUser { uuid } ${failuresOf("updateOfferingUserComments")} } }`,
      { id: globalId("OfferingUser", ou.uuid) },
      owner,
    );
    expect(res.data.updateOfferingUserComments).toMatchObject({ __typename: "PermissionDeniedError", message: "Cannot update comments for offering user in state: Deleted" });
  });

  it("two mutations in one document: the second's failure keeps the first's committed result", async () => {
    const first = await t.world.offeringUser("CREATION_REQUESTED");
    const second = await t.world.offeringUser("OK");
    const res = await t.gql(
      `mutation($a: ID!, $b: ID!) {
        a: beginCreatingOfferingUser(input: { id: $a }) { ... on OfferingUser { state } ${failuresOf("beginCreatingOfferingUser")} }
        b: beginCreatingOfferingUser(input: { id: $b }) { ... on OfferingUser { state } ${failuresOf("beginCreatingOfferingUser")} } }`,
      { a: globalId("OfferingUser", first.uuid), b: globalId("OfferingUser", second.uuid) },
      owner,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.a).toEqual({ state: "CREATING" });
    expect(res.data.b).toMatchObject({ __typename: "OfferingUserTransitionError", currentState: "OK" });
  });

  it("an anonymous caller still gets UNAUTHENTICATED in errors, and a null result rather than an empty response", async () => {
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const res = await t.gql(BEGIN, { id: globalId("OfferingUser", ou.uuid) });
    expect(res.data).toEqual({ beginCreatingOfferingUser: null });
    expect(res.errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("no N+1", () => {
  const NESTED = `query($filter: OfferingUserFilter, $first: Int) {
    offeringUsers(filter: $filter, first: $first, orderBy: [CREATED_ASC]) {
      totalCount
      nodes { uuid offering { name customer { name } } user { username email fullName } }
      edges { node { user { username } } }
    } }`;

  it("listing 30 offering users with nested offering.customer and user costs as many queries as listing 3", async () => {
    const list = (first: number) => countSql(() => t.gql(NESTED, { filter: { offeringUuid: [thirtyOffering] }, first }, owner));
    await list(3); // warms what a process reads once (the token, the roles, compiled selections)
    const three = await list(3);
    const thirty = await list(30);
    expect(thirty.result.errors).toBeUndefined();
    expect(thirty.result.data.offeringUsers.nodes).toHaveLength(30);
    expect(thirty.result.data.offeringUsers.nodes[29]).toMatchObject({
      offering: { name: "thirty", customer: { name: "Provider Org" } }, user: { username: "thirty-29", email: expect.any(String) },
    });
    expect(three.statements).toBeGreaterThan(0);
    expect(thirty.statements).toBe(three.statements);
  });
});
