import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { toHex } from "../platform/ids.ts";

/**
 * An offering user carries copies of its user's username and names and of whether the user consented to the offering
 * (triggers keep them, so that the list sorts, searches and filters on its own indexes). Whatever changes the user or
 * the consents, the list answers as if it read them from their own tables.
 */
const BASE = "/api/marketplace-offering-users/";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await t.http("GET", `${BASE}?page_size=300&offering_uuid=${t.world.offering.uuid}&${query}`, { token: t.world.tokens.staff });
  expect(res.status).toBe(200);
  return res.body as Array<{ uuid: string; user_uuid: string; user_first_name: string; user_last_name: string; user_email: string }>;
};

type Db = TestApp["app"]["deps"]["db"];
type Client = Pick<Db, "offeringUser" | "userOfferingConsent" | "offeringTermsOfService">;

/**
 * Two writes at once: `first` in a transaction left open for a moment while `second` is written from another
 * connection (what a trigger's lock must order, or the second commits without seeing the first).
 */
async function writtenAtOnce(first: (client: Client) => Promise<unknown>, second: (client: Client) => Promise<unknown>) {
  const db = t.app.deps.db;
  let pending: Promise<unknown> | undefined;
  await db.$transaction(async (tx) => {
    await first(tx);
    // Prisma sends a query when it is awaited: awaited here, in a promise of its own.
    pending = (async () => second(db))();
    await new Promise((resolve) => setTimeout(resolve, 150));
  });
  await pending;
}

/** The records of the world's offering whose user holds an unrevoked consent to it, read from the consents. */
async function consentedRecords(): Promise<string[]> {
  const db = t.app.deps.db;
  const offeringId = t.world.offering.id;
  const [records, consents] = await Promise.all([
    db.offeringUser.findMany({ where: { offeringId }, select: { id: true, userId: true } }),
    db.userOfferingConsent.findMany({ where: { offeringId, revocationDate: null }, select: { userId: true } }),
  ]);
  const consenting = new Set(consents.map((consent) => consent.userId));
  return records.filter((record) => consenting.has(record.userId)).map((record) => toHex(record.id)).sort();
}

async function consentFilterAgrees() {
  const expected = await consentedRecords();
  expect((await list("has_consent=true")).map((row) => row.uuid).sort()).toEqual(expected);
  const without = (await list("has_consent=false")).map((row) => row.uuid);
  expect(without.filter((uuid) => expected.includes(uuid))).toEqual([]);
  expect(without.length + expected.length).toBe((await list("")).length);
}

describe("the user's username, names and email", () => {
  it("a record takes its user's when written, and follows every change of them", async () => {
    const db = t.app.deps.db;
    const records = await Promise.all([1, 2, 3].map(() => t.world.offeringUser("OK")));
    const [first, second] = records;
    await db.user.update({ where: { id: first!.userId }, data: { firstName: "Zelda", lastName: "0aardvark" } });
    await db.user.update({ where: { id: second!.userId }, data: { username: "renamed-member", firstName: "Aaron", email: "aaron@example.org" } });

    expect((await list("o=user_last_name"))[0]!.uuid).toBe(first!.uuid);
    expect((await list("o=-user_first_name"))[0]!.uuid).toBe(first!.uuid);
    expect((await list("o=user_first_name"))[0]!.uuid).toBe(second!.uuid);
    expect((await list("query=aardvark")).map((row) => row.uuid)).toEqual([first!.uuid]);
    expect((await list("query=RENAMED-mem")).map((row) => row.uuid)).toEqual([second!.uuid]);
    expect((await list("user_username=Renamed-Member")).map((row) => row.uuid)).toEqual([second!.uuid]);
    expect(await list("query=Zelda")).toHaveLength(1);
    const shown = (await list("")).find((row) => row.uuid === second!.uuid)!;
    expect(shown).toMatchObject({ user_username: "renamed-member", user_first_name: "Aaron", user_full_name: expect.stringMatching(/^Aaron \S/), user_email: "aaron@example.org" });
    expect(await list(`query=member${records.length + 100}`)).toEqual([]);
  });

  it("sorts by the names as the users table has them", async () => {
    const users = await t.app.deps.db.user.findMany({ where: { offeringUsers: { some: { offeringId: t.world.offering.id } } } });
    const nameOf = new Map(users.map((user) => [toHex(user.id), `${user.lastName}`]));
    const listed = await list("o=user_last_name");
    const names = listed.map((row) => nameOf.get(row.user_uuid)!);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(listed.map((row) => row.user_last_name)).toEqual(names);
  });
});

describe("the consent", () => {
  it("has_consent follows consents given before and after the record, revoked, renewed, moved and deleted", async () => {
    const db = t.app.deps.db;
    const offeringId = t.world.offering.id;
    const before = await t.world.offeringUser("OK");
    const earlyUser = await db.user.create({ data: { username: "consented-early" } });
    await db.userOfferingConsent.create({ data: { userId: earlyUser.id, offeringId, version: "1" } });
    await db.offeringUser.create({ data: { offeringId, userId: earlyUser.id, state: "OK" } });
    const consent = await db.userOfferingConsent.create({ data: { userId: before.userId, offeringId, version: "1" } });
    await consentFilterAgrees();
    expect(await consentedRecords()).toHaveLength(2);

    await db.userOfferingConsent.update({ where: { id: consent.id }, data: { revocationDate: new Date() } });
    await consentFilterAgrees();
    await db.userOfferingConsent.update({ where: { id: consent.id }, data: { revocationDate: null, version: "2" } });
    await consentFilterAgrees();
    const other = await db.offering.create({ data: { customerId: t.world.provider.id, name: "Other", type: "Marketplace.Slurm", state: "ACTIVE" } });
    await db.userOfferingConsent.update({ where: { id: consent.id }, data: { offeringId: other.id } });
    await consentFilterAgrees();
    await db.userOfferingConsent.deleteMany({ where: { userId: earlyUser.id } });
    await consentFilterAgrees();
    expect(await consentedRecords()).toEqual([]);
  });

  /**
   * One of the two is written in a transaction left open for a moment while the other is written from another
   * connection: without the triggers' lock on the user's row, the second would commit without seeing the first.
   */
  it.each([
    ["the record first", "record"],
    ["the consent first", "consent"],
  ] as const)("a consent and a record of the same user written at once (%s): the record knows of the consent", async (_name, first) => {
    const db = t.app.deps.db;
    const offeringId = t.world.offering.id;
    const user = await db.user.create({ data: { username: `racing-${first}` } });
    const writes = {
      record: (client: Client) => client.offeringUser.create({ data: { offeringId, userId: user.id, state: "OK" } }),
      consent: (client: Client) => client.userOfferingConsent.create({ data: { userId: user.id, offeringId, version: "1" } }),
    };
    await writtenAtOnce(writes[first], writes[first === "record" ? "consent" : "record"]);
    expect((await db.offeringUser.findFirstOrThrow({ where: { offeringId, userId: user.id } })).hasConsent).toBe(true);
    await consentFilterAgrees();
  });
});

/** What each record of the world's offering shows of its offering, read from the offerings, customers and terms. */
async function offeringCopiesAgree() {
  const db = t.app.deps.db;
  const offering = await db.offering.findUniqueOrThrow({ where: { id: t.world.offering.id }, include: { customer: true } });
  const activeTerms = await db.offeringTermsOfService.count({ where: { offeringId: offering.id, isActive: true } });
  const rows = (await list("")) as unknown as Array<Record<string, unknown>>;
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(row).toMatchObject({
      offering_name: offering.name,
      customer_uuid: toHex(offering.customerId),
      customer_name: offering.customer.name,
      offering_has_active_tos: activeTerms > 0,
    });
  }
  expect(await list(`offering_has_active_tos=${activeTerms > 0}`)).toHaveLength(rows.length);
  expect(await list(`offering_has_active_tos=${activeTerms === 0}`)).toEqual([]);
}

describe("the offering, its customer and its terms", () => {
  it("a record shows its offering's name and customer, and follows their renames and the offering's move", async () => {
    const db = t.app.deps.db;
    await t.world.offeringUser("OK");
    await offeringCopiesAgree();
    await db.offering.update({ where: { id: t.world.offering.id }, data: { name: "Renamed offering" } });
    await offeringCopiesAgree();
    await db.customer.update({ where: { id: t.world.provider.id }, data: { name: "Renamed provider" } });
    await offeringCopiesAgree();
    const other = await db.customer.create({ data: { name: "Another provider" } });
    await db.offering.update({ where: { id: t.world.offering.id }, data: { customerId: other.id } });
    await offeringCopiesAgree();
    await db.offering.update({ where: { id: t.world.offering.id }, data: { customerId: t.world.provider.id } });
    await offeringCopiesAgree();
  });

  it("offering_has_active_tos and the consent fields follow terms written, activated, deactivated, moved and deleted", async () => {
    const db = t.app.deps.db;
    const offeringId = t.world.offering.id;
    const record = await t.world.offeringUser("OK");
    const shown = async () => (await list("")).find((row) => row.uuid === record.uuid) as unknown as Record<string, unknown>;
    const terms = await db.offeringTermsOfService.create({ data: { offeringId, version: "1", isActive: true, requiresReconsent: true, gracePeriodDays: 30 } });
    await offeringCopiesAgree();
    expect(await shown()).toMatchObject({ has_consent: false, requires_reconsent: false });
    await db.userOfferingConsent.create({ data: { userId: record.userId, offeringId, version: "1" } });
    expect(await shown()).toMatchObject({ has_consent: true, requires_reconsent: false });
    await db.offeringTermsOfService.update({ where: { id: terms.id }, data: { isActive: false } });
    await offeringCopiesAgree();
    const second = await db.offeringTermsOfService.create({
      data: { offeringId, version: "2", isActive: true, requiresReconsent: true, gracePeriodDays: 30, activatedAt: new Date() },
    });
    await offeringCopiesAgree();
    expect(await shown()).toMatchObject({ has_consent: true, requires_reconsent: true });
    const other = await db.offering.create({ data: { customerId: t.world.provider.id, name: "Other terms", type: "Marketplace.Slurm", state: "ACTIVE" } });
    await db.offeringTermsOfService.update({ where: { id: second.id }, data: { offeringId: other.id } });
    await offeringCopiesAgree();
    expect(await shown()).toMatchObject({ has_consent: false, requires_reconsent: false });
    await db.offeringTermsOfService.update({ where: { id: terms.id }, data: { isActive: true } });
    await offeringCopiesAgree();
    await db.offeringTermsOfService.deleteMany({ where: { offeringId } });
    await offeringCopiesAgree();
  });

  /** As with consents: without the triggers' lock on the offering's row, the second write would miss the first. */
  it.each([
    ["the record first", "record"],
    ["the terms first", "terms"],
  ] as const)("terms and a record of the same offering written at once (%s): the record knows of the terms", async (_name, first) => {
    const db = t.app.deps.db;
    const offering = await db.offering.create({ data: { customerId: t.world.provider.id, name: `racing-${first}`, type: "Marketplace.Slurm", state: "ACTIVE" } });
    const user = await db.user.create({ data: { username: `racing-terms-${first}` } });
    const writes = {
      record: (client: Client) => client.offeringUser.create({ data: { offeringId: offering.id, userId: user.id, state: "OK" } }),
      terms: (client: Client) => client.offeringTermsOfService.create({ data: { offeringId: offering.id, version: "1", isActive: true } }),
    };
    await writtenAtOnce(writes[first], writes[first === "record" ? "terms" : "record"]);
    expect((await db.offeringUser.findFirstOrThrow({ where: { offeringId: offering.id, userId: user.id } })).offeringHasActiveTerms).toBe(true);
  });
});
