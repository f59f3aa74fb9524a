import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { toHex } from "../platform/ids.ts";

/**
 * The offering-user filters that depend on other records (consents, terms of service, offering slugs) and the runtime
 * state, with the user-name orderings. Offering A has inactive terms, B active ones, C none.
 */

const BASE = "/api/marketplace-offering-users/";
type Key = "a1" | "a2" | "b1" | "b2" | "c1";

let t: TestApp;
const ids = {} as Record<Key, string>;
const slugs = {} as Record<"A" | "B" | "C", string>;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const allowing = { service_provider_can_create_offering_user: true };
  const offering = (name: string) => db.offering.create({ data: { customerId: t.world.provider.id, name, type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: allowing } });
  const offerings = { A: await offering("Alder Cluster"), B: await offering("Birch Cluster"), C: await offering("Cedar Cluster") };
  for (const key of ["A", "B", "C"] as const) slugs[key] = (await db.offering.findUniqueOrThrow({ where: { id: offerings[key].id } })).slug;
  await db.offeringTermsOfService.create({ data: { offeringId: offerings.A.id, version: "1", isActive: false } });
  await db.offeringTermsOfService.create({ data: { offeringId: offerings.B.id, version: "1", isActive: true, activatedAt: new Date() } });
  const users = {
    u1: await db.user.create({ data: { username: "ou.ann", firstName: "Ann", lastName: "Zed" } }),
    u2: await db.user.create({ data: { username: "ou.bob", firstName: "Bob", lastName: "Young" } }),
    u3: await db.user.create({ data: { username: "ou.cid", firstName: "Cid", lastName: "Xu" } }),
  };
  const rows: Array<[Key, "A" | "B" | "C", keyof typeof users, OfferingUserState]> = [
    ["a1", "A", "u1", "PENDING_ACCOUNT_LINKING"],
    ["a2", "A", "u2", "OK"],
    ["b1", "B", "u1", "PENDING_ADDITIONAL_VALIDATION"],
    ["b2", "B", "u3", "OK"],
    ["c1", "C", "u2", "CREATING"],
  ];
  for (const [index, [key, on, user, state]] of rows.entries()) {
    const created = new Date(Date.UTC(2024, 0, index + 1));
    const ou = await db.offeringUser.create({ data: { offeringId: offerings[on].id, userId: users[user].id, state, username: key, created } });
    ids[key] = toHex(ou.id);
  }
  const consent = (user: keyof typeof users, on: "A" | "B" | "C", revoked = false) =>
    db.userOfferingConsent.create({ data: { userId: users[user].id, offeringId: offerings[on].id, version: "1", revocationDate: revoked ? new Date() : null } });
  await consent("u1", "B");
  await consent("u2", "A");
  await consent("u3", "B", true);
  // Ann consented to C, where she has no account: it must not count for Bob's account there.
  await consent("u1", "C");
});
afterAll(() => t.close());

async function list(query: string): Promise<string[]> {
  const res = await t.http("GET", `${BASE}?${query}`, { token: t.world.tokens.staff });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.body as Array<{ uuid: string }>).flatMap((ou) => (Object.keys(ids) as Key[]).filter((key) => ids[key] === ou.uuid));
}

describe("offering-user filters over other records", () => {
  const cases: Array<[string, () => string, Key[]]> = [
    ["no filter", () => "", ["a1", "a2", "b1", "b2", "c1"]],
    ["has_consent=true: an unrevoked consent of the user to that offering", () => "has_consent=true", ["a2", "b1"]],
    ["has_consent=false", () => "has_consent=false", ["a1", "b2", "c1"]],
    ["offering_has_active_tos=true", () => "offering_has_active_tos=true", ["b1", "b2"]],
    ["offering_has_active_tos=false", () => "offering_has_active_tos=false", ["a1", "a2", "c1"]],
    ["runtime_state=Active: every state but the pending ones", () => "runtime_state=Active", ["a2", "b2", "c1"]],
    ["runtime_state pending account linking", () => "runtime_state=Pending+account+linking", ["a1"]],
    ["runtime_state repeated", () => "runtime_state=Pending+account+linking&runtime_state=Pending+additional+validation", ["a1", "b1"]],
    ["offering_slug", () => `offering_slug=${slugs.B}`, ["b1", "b2"]],
    ["offering_slug comma-separated", () => `offering_slug=${slugs.A},${slugs.C}`, ["a1", "a2", "c1"]],
    ["offering_slug repeated", () => `offering_slug=${slugs.A}&offering_slug=${slugs.C}`, ["a1", "a2", "c1"]],
    ["offering_slug nobody has", () => "offering_slug=nowhere", []],
    ["parent_offering_uuid: no offering here has a parent", () => `parent_offering_uuid=${toHex(t.world.offering.id)}`, []],
    ["has_complete_profile=true: no offering asks for profile attributes", () => "has_complete_profile=true", ["a1", "a2", "b1", "b2", "c1"]],
    ["has_complete_profile=false", () => "has_complete_profile=false", []],
    ["filters combine", () => "has_consent=true&offering_has_active_tos=true&runtime_state=Pending+additional+validation", ["b1"]],
  ];
  for (const [name, query, expected] of cases) {
    it(name, async () => expect(await list([query(), "o=created"].filter(Boolean).join("&"))).toEqual(expected));
  }

  it("o=user_first_name and o=-user_last_name order by the user's names", async () => {
    expect(await list("o=user_first_name,created")).toEqual(["a1", "b1", "a2", "c1", "b2"]);
    expect(await list("o=-user_last_name,-created")).toEqual(["b1", "a1", "c1", "a2", "b2"]);
  });

  it("an unknown runtime state or a malformed parent uuid → 400 naming the filter", async () => {
    const runtime = await t.http("GET", `${BASE}?runtime_state=Online`, { token: t.world.tokens.staff });
    expect(runtime).toMatchObject({ status: 400, body: { runtime_state: ["Select a valid choice. Online is not one of the available choices."] } });
    const parent = await t.http("GET", `${BASE}?parent_offering_uuid=nope`, { token: t.world.tokens.staff });
    expect(parent).toMatchObject({ status: 400, body: { parent_offering_uuid: ["Enter a valid UUID."] } });
  });

  it("GraphQL takes them under their argument names", async () => {
    const res = await t.gql(
      `query($filter: OfferingUserFilter) { offeringUsers(filter: $filter, orderBy: [USER_FIRST_NAME_ASC, CREATED_ASC]) { nodes { uuid runtimeState } } }`,
      { filter: { hasConsent: false, runtimeState: ["ACTIVE", "PENDING_ACCOUNT_LINKING"], offeringSlug: [slugs.A, slugs.B] } },
      t.world.tokens.staff,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.offeringUsers.nodes).toEqual([
      { uuid: ids.a1, runtimeState: "PENDING_ACCOUNT_LINKING" },
      { uuid: ids.b2, runtimeState: "ACTIVE" },
    ]);
  });

  it("records show their runtime state and whether the offering has active terms, as py-client reads them", async () => {
    const res = await t.http("GET", `${BASE}?o=created`, { token: t.world.tokens.staff });
    expect(res.body.map((ou: { runtime_state: string; offering_has_active_tos: boolean }) => [ou.runtime_state, ou.offering_has_active_tos])).toEqual([
      ["Pending account linking", false],
      ["Active", false],
      ["Pending additional validation", true],
      ["Active", true],
      ["Active", false],
    ]);
    expect(responseProblems(waldurOperation("GET", BASE)!, res.body)).toEqual([]);
  });
});
