import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextFor } from "../context.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { requireConsent } from "./enforcement.ts";

const DAY = 86_400_000;
let clock = new Date("2031-05-01T00:00:00Z").getTime();

/** Offering users on the world's offering, some with consent; the same data is read with enforcement on and off. */
async function setUp(t: TestApp) {
  await t.app.deps.db.offeringTermsOfService.create({
    data: { offeringId: t.world.offering.id, isActive: true, version: "1", activatedAt: new Date(clock) },
  });
  const consented = await t.world.offeringUser("OK", { username: "yes" });
  const unconsented = await t.world.offeringUser("OK", { username: "no" });
  await t.app.deps.db.userOfferingConsent.create({ data: { userId: consented.userId, offeringId: t.world.offering.id, version: "1" } });
  return { consented, unconsented };
}

const usernames = async (t: TestApp, token: string) =>
  (await t.http("GET", `/api/marketplace-offering-users/?o=username`, { token })).body.map((ou: { username: string }) => ou.username);

describe("consent enforcement switched off (default)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { now: () => new Date(clock) });
    await setUp(t);
  });
  afterAll(() => t.close());

  it("shows providers every offering user and reports consent per record", async () => {
    expect(await usernames(t, t.world.tokens.providerOwner)).toEqual(["no", "yes"]);
    const list = await t.http("GET", `/api/marketplace-offering-users/?o=username&field=username&field=has_consent`, { token: t.world.tokens.providerOwner });
    expect(list.body).toEqual([{ username: "no", has_consent: false }, { username: "yes", has_consent: true }]);
  });

  it("lets everyone through the resource check", async () => {
    const offering = await t.app.deps.db.offering.findUniqueOrThrow({ where: { id: t.world.offering.id } });
    const ctx = contextFor(t.app.deps, { id: t.world.users.unrelated.id, username: "unrelated", isStaff: false, isSupport: false }, undefined, { url: t.baseUrl });
    await expect(requireConsent(ctx, offering)).resolves.toBeUndefined();
  });
});

describe("consent enforcement switched on", () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    t = await startTestApp({ enforceUserConsent: true }, { now: () => new Date(clock) });
    users = await setUp(t);
  });
  afterAll(() => t.close());

  it("hides unconsented users from providers, not from staff", async () => {
    expect(await usernames(t, t.world.tokens.providerOwner)).toEqual(["yes"]);
    expect(await usernames(t, t.world.tokens.staff)).toEqual(["no", "yes"]);
    const hidden = await t.http("GET", `/api/marketplace-offering-users/${users.unconsented.uuid}/`, { token: t.world.tokens.providerOwner });
    expect(hidden.status).toBe(404);
  });

  it("refuses resource access without consent, and after an expired reconsent grace period, with Waldur's messages", async () => {
    const offering = await t.app.deps.db.offering.findUniqueOrThrow({ where: { id: t.world.offering.id } });
    const asUser = (id: string) => contextFor(t.app.deps, { id, username: "u", isStaff: false, isSupport: false }, undefined, { url: t.baseUrl });
    await expect(requireConsent(asUser(users.unconsented.userId), offering)).rejects.toMatchObject({
      message: "Terms of Service consent required for offering 'HPC'. Please accept the Terms of Service before accessing this resource.",
      extensions: { code: "FORBIDDEN" },
    });
    await expect(requireConsent(asUser(users.consented.userId), offering)).resolves.toBeUndefined();

    await t.app.deps.db.offeringTermsOfService.updateMany({ where: { offeringId: offering.id }, data: { isActive: false } });
    await t.app.deps.db.offeringTermsOfService.create({
      data: { offeringId: offering.id, isActive: true, version: "2", requiresReconsent: true, gracePeriodDays: 5, activatedAt: new Date(clock) },
    });
    await expect(requireConsent(asUser(users.consented.userId), offering)).resolves.toBeUndefined();
    clock += 6 * DAY;
    await expect(requireConsent(asUser(users.consented.userId), offering)).rejects.toMatchObject({
      message: "Your Terms of Service consent for 'HPC' has expired. Please accept the updated Terms of Service (version 2) ",
    });
    const staff = contextFor(t.app.deps, { id: t.world.users.staff.id, username: "staff", isStaff: true, isSupport: false }, undefined, { url: t.baseUrl });
    await expect(requireConsent(staff, offering)).resolves.toBeUndefined();
  });
});
