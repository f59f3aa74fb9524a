import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { countSql } from "../../test/support/sql-counter.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { parseUuid, toHex } from "../platform/ids.ts";
import { OFFERING_USER_STATES } from "./states.ts";
import { foldTallies as foldTalliesOf, foldTalliesEvery } from "../platform/database/tallies.ts";
import { OFFERING_USER_TALLIES } from "./tallies.ts";

const foldTallies = (db: TestApp["app"]["deps"]["db"], after?: bigint) => foldTalliesOf(db, OFFERING_USER_TALLIES, after);

/**
 * A list's X-Result-Count (and the dashboard's counts per offering and state) come from the per-(offering, state)
 * tallies where they can. Whatever path they take, they must be those of the records the list pages through, for
 * every viewer and filter, after any change.
 */
const BASE = "/api/marketplace-offering-users/";
const VIEWERS = ["staff", "providerManager", "offeringManager", "projectAdmin", "unrelated"] as const;
const STATES: OfferingUserState[] = ["CREATION_REQUESTED", "OK", "OK", "PENDING_ACCOUNT_LINKING", "DELETION_REQUESTED", "ERROR_CREATING"];

let t: TestApp;
const ref = {} as { otherProvider: string; otherOffering: string; otherOfferingId: string; unmanagedOffering: string };

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const other = await db.customer.create({ data: { name: "Other Provider" } });
  const offering = (data: { customerId: string; name: string; pluginOptions: object }) =>
    db.offering.create({ data: { ...data, type: "Marketplace.Slurm", state: "ACTIVE" } });
  const otherOffering = await offering({ customerId: other.id, name: "Other", pluginOptions: { service_provider_can_create_offering_user: true } });
  const unmanaged = await offering({ customerId: t.world.provider.id, name: "Unmanaged", pluginOptions: {} });
  Object.assign(ref, {
    otherProvider: toHex(other.id),
    otherOffering: toHex(otherOffering.id),
    otherOfferingId: otherOffering.id,
    unmanagedOffering: toHex(unmanaged.id),
  });
  for (const [i, state] of STATES.entries()) {
    const record = await t.world.offeringUser(state, { username: i % 2 ? `user${i}` : null });
    // Half of the provider's records consented to the offering (before or after the record was written).
    if (i % 2 === 0) await db.userOfferingConsent.create({ data: { userId: record.userId, offeringId: t.world.offering.id, version: "1" } });
    const user = await db.user.create({ data: { username: `elsewhere${i}` } });
    for (const offeringId of [otherOffering.id, unmanaged.id]) await db.offeringUser.create({ data: { offeringId, userId: user.id, state } });
  }
  // The provider's manager holds an account on another provider's offering: visible as their own record only.
  await db.offeringUser.create({ data: { offeringId: otherOffering.id, userId: t.world.users.providerManager.id, state: "OK" } });
});
afterAll(() => t.close());

const FILTERS = () => [
  "",
  "state=OK",
  "state=Requested&state=OK",
  `provider_uuid=${t.world.provider.uuid}`,
  `provider_uuid=${ref.otherProvider}`,
  `offering_uuid=${ref.otherOffering}`,
  `offering_uuid=${t.world.offering.uuid}&state=Pending account linking`,
  "runtime_state=Active",
  "offering_has_active_tos=false",
  "is_restricted=false",
  "username=user1",
  "has_consent=true",
  "has_consent=false",
  "has_consent=true&state=OK",
];

const COUNTS = `{ offeringUserCounts { offerings { offeringUuid states { state count } } } }`;

/** The dashboard's counts per offering and state: those of the records the list shows. */
async function dashboardAgrees(viewer: (typeof VIEWERS)[number]) {
  const listed: Array<{ offering_uuid: string; state: string }> = (await t.http("GET", `${BASE}?page_size=300`, { token: t.world.tokens[viewer] })).body;
  const expected: Record<string, number> = {};
  for (const row of listed) expected[`${row.offering_uuid} ${row.state}`] = (expected[`${row.offering_uuid} ${row.state}`] ?? 0) + 1;
  const res = await t.gql(COUNTS, {}, t.world.tokens[viewer]);
  expect(res.errors).toBeUndefined();
  const counted: Record<string, number> = {};
  for (const offering of res.data.offeringUserCounts.offerings) {
    for (const { state, count } of offering.states) if (count) counted[`${offering.offeringUuid} ${OFFERING_USER_STATES[state as OfferingUserState].label}`] = count;
  }
  expect(counted, viewer).toEqual(expected);
}

async function countsAgree() {
  for (const viewer of VIEWERS) {
    await dashboardAgrees(viewer);
    for (const filter of FILTERS()) {
      const res = await t.http("GET", `${BASE}?page_size=300&${filter}`, { token: t.world.tokens[viewer] });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-result-count"), `${viewer} ?${filter}`).toBe(String(res.body.length));
    }
  }
}

/** Every (offering, state, consent) the tallies add up to, beside the offering users counted. */
async function talliesAndRows() {
  const db = t.app.deps.db;
  const [tallies, rows] = await Promise.all([
    db.offeringUserTally.groupBy({ by: ["offeringId", "state", "hasConsent"], _sum: { delta: true }, having: { delta: { _sum: { not: 0 } } } }),
    db.offeringUser.groupBy({ by: ["offeringId", "state", "hasConsent"], _count: { _all: true } }),
  ]);
  const key = (row: { offeringId: string; state: string; hasConsent: boolean }) => `${row.offeringId} ${row.state} ${row.hasConsent}`;
  return {
    tallies: Object.fromEntries(tallies.map((row) => [key(row), row._sum.delta])),
    rows: Object.fromEntries(rows.map((row) => [key(row), row._count._all])),
  };
}

describe("X-Result-Count from the tallies", () => {
  it("is the number of records listed, for every viewer and filter", async () => {
    await countsAgree();
  });

  it("follows transitions, deletions and a deleted offering", async () => {
    const staff = t.world.tokens.staff;
    const requested = (await t.http("GET", `${BASE}?state=Requested&page_size=300`, { token: staff })).body;
    for (const record of requested) expect((await t.http("POST", `${BASE}${record.uuid}/begin_creating/`, { token: staff })).status).toBe(200);
    const ok = (await t.http("GET", `${BASE}?state=OK&page_size=1`, { token: staff })).body;
    await t.app.deps.db.offeringUser.delete({ where: { id: parseUuid(ok[0].uuid)! } });
    await t.app.deps.db.offering.delete({ where: { id: parseUuid(ref.unmanagedOffering)! } });
    await countsAgree();
    const { tallies, rows } = await talliesAndRows();
    expect(tallies).toEqual(rows);
  });

  it("follows consents given, revoked, moved and deleted", async () => {
    const db = t.app.deps.db;
    const records = await Promise.all(["OK", "OK", "CREATION_REQUESTED"].map((state) => t.world.offeringUser(state as OfferingUserState)));
    const consent = (userId: string) => db.userOfferingConsent.create({ data: { userId, offeringId: t.world.offering.id, version: "1" } });
    const [first, second, third] = await Promise.all(records.map((record) => consent(record.userId)));
    await countsAgree();
    await db.userOfferingConsent.update({ where: { id: first!.id }, data: { revocationDate: new Date() } });
    await db.userOfferingConsent.update({ where: { id: second!.id }, data: { offeringId: ref.otherOfferingId } });
    await db.userOfferingConsent.delete({ where: { id: third!.id } });
    await countsAgree();
    const { tallies, rows } = await talliesAndRows();
    expect(tallies).toEqual(rows);
  });

  it("folding leaves one row per offering and state and the same totals, while changes go on", async () => {
    const db = t.app.deps.db;
    const record = await t.world.offeringUser("CREATION_REQUESTED");
    const staff = t.world.tokens.staff;
    const steps = ["begin_creating", "set_pending_account_linking", "set_validation_complete", "request_deletion"];
    await Promise.all([
      (async () => {
        for (const step of steps) expect((await t.http("POST", `${BASE}${record.uuid}/${step}/`, { token: staff })).status).toBe(200);
      })(),
      (async () => {
        for (let i = 0; i < 4; i++) await foldTallies(db);
      })(),
    ]);
    await foldTallies(db);
    const { tallies, rows } = await talliesAndRows();
    expect(tallies).toEqual(rows);
    expect(await db.offeringUserTally.count()).toBe(Object.keys(rows).length);
    await countsAgree();
  });

  it("a fold after a known row rewrites only the offerings and states changed since, and the gateway's timer folds", async () => {
    const db = t.app.deps.db;
    await foldTallies(db);
    const before = await db.offeringUserTally.findMany({ orderBy: { id: "asc" } });
    const newest = before.at(-1)!.id;
    const record = await t.world.offeringUser("CREATION_REQUESTED");
    expect((await t.http("POST", `${BASE}${record.uuid}/begin_creating/`, { token: t.world.tokens.staff })).status).toBe(200);
    await foldTallies(db, newest);
    const after = await db.offeringUserTally.findMany({ orderBy: { id: "asc" } });
    const touched = (row: { offeringId: string; state: string; hasConsent: boolean }) =>
      row.offeringId === t.world.offering.id && !row.hasConsent && (row.state === "CREATION_REQUESTED" || row.state === "CREATING");
    expect(after.filter((row) => !touched(row))).toEqual(before.filter((row) => !touched(row)));
    expect(after.filter(touched).every((row) => row.id > newest)).toBe(true);
    const { tallies, rows } = await talliesAndRows();
    expect(tallies).toEqual(rows);

    const folding = foldTalliesEvery(db, [OFFERING_USER_TALLIES], 20, (error) => expect.unreachable(String(error)));
    try {
      await t.world.offeringUser("OK");
      expect(await db.offeringUserTally.count()).toBeGreaterThan(Object.keys(rows).length);
      await vi.waitFor(async () => expect(await db.offeringUserTally.count()).toBe(Object.keys((await talliesAndRows()).rows).length));
    } finally {
      await folding.close();
    }
  });

  it("staff's count reads the tallies, not the offering users", async () => {
    const { texts } = await countSql(() => t.http("GET", `${BASE}?state=OK`, { token: t.world.tokens.staff }));
    const counts = texts.filter((text) => /COUNT|SUM/i.test(text));
    expect(counts.join("\n")).toMatch(/offering_user_tallies/);
    expect(counts.join("\n")).not.toMatch(/COUNT\(\*\)[\s\S]*"offering_users"/);
  });
});
