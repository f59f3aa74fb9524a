import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { toHex } from "../platform/ids.ts";

const BASE = "/api/marketplace-offering-users/";
type Key = "r1" | "r2" | "r3" | "r4" | "r5";

let t: TestApp;
let staff: string;
const ids = {} as Record<Key, { uuid: string; userUuid: string }>;
const ref = {} as { offeringB: string; offeringC: string; providerP2: string };

/** Five records over three offerings and two providers, with fixed timestamps (offering A is the world's "HPC"). */
const DATASET: Array<{
  key: Key; offering: "A" | "B" | "C"; user: [string, string, string]; state: OfferingUserState;
  username: string | null; created: string; modified: string; isRestricted?: boolean;
}> = [
  { key: "r1", offering: "A", user: ["fu.one", "Quinn", "Zimmer"], state: "CREATION_REQUESTED", username: null, created: "2024-01-01T00:00:00Z", modified: "2024-01-11T00:00:00Z" },
  { key: "r2", offering: "A", user: ["Fu.Two", "Rita", "Young"], state: "OK", username: "alice", created: "2024-02-01T00:00:00Z", modified: "2024-02-11T00:00:00Z" },
  { key: "r3", offering: "B", user: ["fu.three", "Sam", "Xu"], state: "DELETION_REQUESTED", username: "Alice", created: "2024-03-01T00:00:00Z", modified: "2024-03-11T00:00:00Z" },
  { key: "r4", offering: "B", user: ["fu.four", "Tara", "Wong"], state: "ERROR_CREATING", username: "bob", created: "2024-04-01T00:00:00Z", modified: "2024-04-11T00:00:00Z", isRestricted: true },
  { key: "r5", offering: "C", user: ["fu.five", "Uma", "Vance"], state: "OK", username: "carol", created: "2024-05-01T00:00:00Z", modified: "2024-05-11T00:00:00Z" },
];

beforeAll(async () => {
  t = await startTestApp();
  staff = t.world.tokens.staff;
  const db = t.app.deps.db;
  const allowing = { service_provider_can_create_offering_user: true };
  const p2 = await db.customer.create({ data: { name: "Second Provider" } });
  const offerings = {
    A: t.world.offering.id,
    B: (await db.offering.create({ data: { customerId: t.world.provider.id, name: "Beta Cluster", type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: allowing } })).id,
    C: (await db.offering.create({ data: { customerId: p2.id, name: "Gamma", type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: allowing } })).id,
  };
  ref.offeringB = toHex(offerings.B);
  ref.offeringC = toHex(offerings.C);
  ref.providerP2 = toHex(p2.id);
  for (const row of DATASET) {
    const [username, firstName, lastName] = row.user;
    const user = await db.user.create({ data: { username, firstName, lastName } });
    const ou = await db.offeringUser.create({
      data: {
        offeringId: offerings[row.offering], userId: user.id, state: row.state, username: row.username,
        isRestricted: row.isRestricted ?? false, created: new Date(row.created), modified: new Date(row.modified),
      },
    });
    ids[row.key] = { uuid: toHex(ou.id), userUuid: toHex(user.id) };
  }
});
afterAll(() => t.close());

const keyOf = (uuid: string) => (Object.keys(ids) as Key[]).find((k) => ids[k].uuid === uuid) ?? uuid;

/** The records a staff list returns for `query`, as dataset keys in response order. */
async function list(query: string) {
  const res = await t.http("GET", `${BASE}?${query}`, { token: staff });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  expect(res.headers.get("x-result-count")).toBe(String(res.body.length));
  return (res.body as Array<{ uuid: string }>).map((ou) => keyOf(ou.uuid));
}

async function rejected(query: string) {
  const res = await t.http("GET", `${BASE}?${query}`, { token: staff });
  expect(res.status, query).toBe(400);
  return res.body;
}

describe("list filters (each answer ordered by created)", () => {
  const cases: Array<[string, () => string, Key[]]> = [
    ["no filter", () => "", ["r1", "r2", "r3", "r4", "r5"]],
    ["state=OK", () => "state=OK", ["r2", "r5"]],
    ["state repeated", () => "state=Requested&state=Error%20creating", ["r1", "r4"]],
    ["state with an encoded space", () => "state=Requested+deletion", ["r3"]],
    ["state nobody is in", () => "state=Deleted", []],
    ["provider_uuid (first provider)", () => `provider_uuid=${t.world.provider.uuid}`, ["r1", "r2", "r3", "r4"]],
    ["provider_uuid (second provider)", () => `provider_uuid=${ref.providerP2}`, ["r5"]],
    ["offering_uuid", () => `offering_uuid=${ref.offeringB}`, ["r3", "r4"]],
    ["offering_uuid comma-separated", () => `offering_uuid=${t.world.offering.uuid},${ref.offeringC}`, ["r1", "r2", "r5"]],
    ["offering_uuid repeated", () => `offering_uuid=${t.world.offering.uuid}&offering_uuid=${ref.offeringC}`, ["r1", "r2", "r5"]],
    ["user_uuid", () => `user_uuid=${ids.r4.userUuid}`, ["r4"]],
    ["username exact", () => "username=alice", ["r2"]],
    ["username is case-sensitive", () => "username=Alice", ["r3"]],
    ["username with no exact match", () => "username=ALICE", []],
    ["user_username is case-insensitive", () => "user_username=FU.TWO", ["r2"]],
    ["user_username is an exact match", () => "user_username=fu", []],
    ["created (date: on or after)", () => "created=2024-03-01", ["r3", "r4", "r5"]],
    ["created (date-time)", () => "created=2024-03-01T00:00:01Z", ["r4", "r5"]],
    ["created_after (spec alias)", () => "created_after=2024-03-01", ["r3", "r4", "r5"]],
    ["created_before", () => "created_before=2024-02-15", ["r1", "r2"]],
    ["created window", () => "created=2024-02-01&created_before=2024-03-15", ["r2", "r3"]],
    ["modified (on or after)", () => "modified=2024-04-05", ["r4", "r5"]],
    ["modified_before", () => "modified_before=2024-01-20", ["r1"]],
    ["query: username, case-insensitive", () => "query=ALICE", ["r2", "r3"]],
    ["query: offering name", () => "query=beta", ["r3", "r4"]],
    ["query: user's last name", () => "query=zimmer", ["r1"]],
    ["is_restricted=true", () => "is_restricted=true", ["r4"]],
    ["is_restricted=false", () => "is_restricted=false", ["r1", "r2", "r3", "r5"]],
    ["filters combine with AND", () => `state=OK&provider_uuid=${t.world.provider.uuid}`, ["r2"]],
  ];
  for (const [name, query, expected] of cases) {
    it(name, async () => {
      expect(await list([query(), "o=created"].filter(Boolean).join("&"))).toEqual(expected);
    });
  }

  it("an unknown state label → 400 with Django's choice message", async () => {
    expect(await rejected("state=Deletion%20requested")).toEqual({
      state: ["Select a valid choice. Deletion requested is not one of the available choices."],
    });
    expect(await rejected("state=ok")).toEqual({ state: ["Select a valid choice. ok is not one of the available choices."] });
  });

  it("a malformed uuid in any uuid filter → 400 naming the filter", async () => {
    expect(await rejected("provider_uuid=xyz")).toEqual({ provider_uuid: ["Enter a valid UUID."] });
    expect(await rejected("user_uuid=123")).toEqual({ user_uuid: ["Enter a valid UUID."] });
    expect(Object.keys(await rejected(`offering_uuid=${t.world.offering.uuid},nope`))).toEqual(["offering_uuid"]);
  });

  it("a dashed uuid filters like the hex one", async () => {
    const hex = ref.offeringB;
    const dashedUuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    expect(await list(`offering_uuid=${dashedUuid}&o=created`)).toEqual(["r3", "r4"]);
  });

  it("a malformed date → 400 naming the filter", async () => {
    expect(Object.keys(await rejected("created=yesterday"))).toEqual(["created"]);
  });
});

describe("ordering (o=)", () => {
  const cases: Array<[string, Key[]]> = [
    ["o=created", ["r1", "r2", "r3", "r4", "r5"]],
    ["o=-created", ["r5", "r4", "r3", "r2", "r1"]],
    ["o=modified", ["r1", "r2", "r3", "r4", "r5"]],
    ["o=-modified", ["r5", "r4", "r3", "r2", "r1"]],
    ["state=OK&o=-username", ["r5", "r2"]],
  ];
  for (const [query, expected] of cases) {
    it(query, async () => expect(await list(query)).toEqual(expected));
  }

  it("o=username / -username: empty usernames last ascending, first descending (PostgreSQL as under Django)", async () => {
    const ac = `offering_uuid=${t.world.offering.uuid},${ref.offeringC}`;
    expect(await list(`${ac}&o=username`)).toEqual(["r2", "r5", "r1"]);
    expect(await list(`${ac}&o=-username`)).toEqual(["r1", "r5", "r2"]);
  });

  it("the default order is by username", async () => {
    expect(await list(`offering_uuid=${t.world.offering.uuid},${ref.offeringC}`)).toEqual(["r2", "r5", "r1"]);
  });

  it("several keys: o=-created,username", async () => {
    expect(await list(`state=OK&o=-created,username`)).toEqual(["r5", "r2"]);
  });

  it("an unknown ordering → 400 {o: [...]}", async () => {
    expect(await rejected("o=name")).toEqual({ o: ["Select a valid choice. name is not one of the available choices."] });
    expect(await rejected("o=created,-state")).toEqual({ o: ["Select a valid choice. -state is not one of the available choices."] });
  });
});
