import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { toHex } from "../platform/ids.ts";

let t: TestApp;
let offering: string;
beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const created = await db.offering.create({ data: { customerId: t.world.provider.id, name: "Counted", type: "Marketplace.Basic", state: "ACTIVE" } });
  offering = toHex(created.id);
  const states = ["OK", "OK", "CREATING", "ERROR_CREATING"] as const;
  for (const [i, state] of states.entries()) {
    const user = await db.user.create({ data: { username: `counted${i}` } });
    await db.offeringUser.create({ data: { offeringId: created.id, userId: user.id, state } });
  }
});
afterAll(() => t.close());

const COUNTS = `query($filter: OfferingUserFilter) {
  offeringUserCounts(filter: $filter) { states { state count } offerings { offeringUuid offering { name } states { state count } } } }`;

describe("offeringUserCounts", () => {
  it("counts per state in one field, every state listed, and per offering", async () => {
    const res = await t.gql(COUNTS, { filter: { offeringUuid: [offering] } }, t.world.tokens.staff);
    expect(res.errors).toBeUndefined();
    const { states, offerings } = res.data.offeringUserCounts;
    expect(states).toHaveLength(10);
    expect(Object.fromEntries(states.filter((s: { count: number }) => s.count).map((s: { state: string; count: number }) => [s.state, s.count]))).toEqual({
      OK: 2, CREATING: 1, ERROR_CREATING: 1,
    });
    expect(offerings).toHaveLength(1);
    expect(offerings[0]).toMatchObject({ offeringUuid: offering, offering: { name: "Counted" } });
    expect(offerings[0].states.find((s: { state: string }) => s.state === "OK").count).toBe(2);
  });

  it("counts what the list would show: the same filter, the viewer's visibility", async () => {
    const list = await t.gql(`query($filter: OfferingUserFilter) { offeringUsers(filter: $filter) { totalCount } }`, { filter: { state: ["OK"] } }, t.world.tokens.providerOwner);
    const counts = await t.gql(COUNTS, { filter: { state: ["OK"] } }, t.world.tokens.providerOwner);
    const ok = counts.data.offeringUserCounts.states.find((s: { state: string }) => s.state === "OK").count;
    expect(ok).toBe(list.data.offeringUsers.totalCount);
    const stranger = await t.gql(COUNTS, { filter: { offeringUuid: [offering] } }, t.world.tokens.unrelated);
    expect(stranger.data.offeringUserCounts.states.every((s: { count: number }) => s.count === 0)).toBe(true);
    expect(stranger.data.offeringUserCounts.offerings).toEqual([]);
  });

  it("anonymous → UNAUTHENTICATED", async () => {
    expect((await t.gql(COUNTS, {})).errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("availableTransitions", () => {
  const ONE = `query($uuid: ID!) { offeringUser(uuid: $uuid) { availableTransitions { operation mutation to permitted } } }`;

  it("lists the operations the state allows now, with their mutations, permitted for the provider", async () => {
    const ou = await t.world.offeringUser("CREATING");
    const res = await t.gql(ONE, { uuid: ou.uuid }, t.world.tokens.providerOwner);
    expect(res.errors).toBeUndefined();
    expect(res.data.offeringUser.availableTransitions.map((a: { operation: string }) => a.operation).sort()).toEqual([
      "set_error_creating", "set_ok", "set_pending_account_linking", "set_pending_additional_validation",
    ]);
    expect(res.data.offeringUser.availableTransitions).toContainEqual({ operation: "set_ok", mutation: "setOkOfferingUser", to: "OK", permitted: true });
  });

  it("a viewer who may see but not act gets the same operations, none permitted", async () => {
    const ou = await t.world.offeringUser("OK");
    const res = await t.gql(ONE, { uuid: ou.uuid }, t.world.tokens.support);
    expect(res.data.offeringUser.availableTransitions).toEqual([
      { operation: "request_deletion", mutation: "requestDeletionOfferingUser", to: "DELETION_REQUESTED", permitted: false },
    ]);
  });

  it("a permitted operation it lists succeeds; after it the list follows the new state", async () => {
    const ou = await t.world.offeringUser("OK");
    const before = await t.gql(ONE, { uuid: ou.uuid }, t.world.tokens.providerOwner);
    const [action] = before.data.offeringUser.availableTransitions;
    const done = await t.gql(`mutation($id: ID!) { ${action.mutation}(input: { id: $id }) { ... on OfferingUser { state } } }`, { id: globalId("OfferingUser", ou.uuid) }, t.world.tokens.providerOwner);
    expect(done.data[action.mutation]).toEqual({ state: action.to });
    const after = await t.gql(ONE, { uuid: ou.uuid }, t.world.tokens.providerOwner);
    expect(after.data.offeringUser.availableTransitions.map((a: { operation: string }) => a.operation)).toEqual(["set_deleting", "set_error_deleting"]);
  });
});
