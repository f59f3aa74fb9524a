import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { responseProblems, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { toHex } from "../platform/ids.ts";

/** Waldur's filters and orderings of the terms-of-service and consent lists, and their responses as py-client reads them. */

const TERMS = "/api/marketplace-offering-terms-of-service/";
const CONSENTS = "/api/marketplace-user-offering-consents/";

let t: TestApp;
const terms: Record<string, string> = {};
const consents: Record<string, string> = {};
const ref = {} as { x: string; y: string; member: string; admin: string };

const day = (d: string) => new Date(`2024-${d}T00:00:00Z`);

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const x = t.world.offering.id;
  const y = (await db.offering.create({ data: { customerId: t.world.provider.id, name: "Yonder", type: "Marketplace.Slurm", state: "ACTIVE" } })).id;
  Object.assign(ref, { x: toHex(x), y: toHex(y), member: t.world.users.projectMember.uuid, admin: t.world.users.projectAdmin.uuid });
  const termsRows = [
    { key: "x1", offeringId: x, version: "1.0", isActive: false, requiresReconsent: false, created: day("01-01") },
    { key: "x2", offeringId: x, version: "2.0", isActive: true, requiresReconsent: true, created: day("02-01"), activatedAt: day("02-01") },
    { key: "y1", offeringId: y, version: "1.0", isActive: true, requiresReconsent: false, created: day("03-01"), activatedAt: day("03-01") },
  ];
  for (const { key, ...data } of termsRows) terms[key] = toHex((await db.offeringTermsOfService.create({ data })).id);
  const member = t.world.users.projectMember.id;
  const admin = t.world.users.projectAdmin.id;
  const consentRows = [
    { key: "memberX", userId: member, offeringId: x, version: "1.0", agreementDate: day("01-05"), created: day("01-05") },
    { key: "adminX", userId: admin, offeringId: x, version: "2.0", agreementDate: day("02-05"), revocationDate: day("02-10"), created: day("02-05") },
    { key: "memberY", userId: member, offeringId: y, version: "1.0", agreementDate: day("03-05"), created: day("03-05") },
    { key: "adminY", userId: admin, offeringId: y, version: "1.0", agreementDate: day("03-06"), created: day("03-06") },
  ];
  for (const { key, ...data } of consentRows) consents[key] = toHex((await db.userOfferingConsent.create({ data })).id);
});
afterAll(() => t.close());

const offeringUrl = (uuid: string, view = "marketplace-provider-offerings") => encodeURIComponent(`${t.baseUrl}/api/${view}/${uuid}/`);

async function keys(base: string, table: Record<string, string>, query: string) {
  const res = await t.http("GET", `${base}?${query}`, { token: t.world.tokens.staff });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return (res.body as Array<{ uuid: string }>).map((row) => Object.keys(table).find((key) => table[key] === row.uuid) ?? row.uuid);
}

describe("terms-of-service list filters", () => {
  const cases: Array<[string, () => string, string[]]> = [
    ["offering_uuid", () => `offering_uuid=${ref.x}`, ["x1", "x2"]],
    ["offering (URL)", () => `offering=${offeringUrl(ref.y)}`, ["y1"]],
    ["offering (public URL)", () => `offering=${offeringUrl(ref.x, "marketplace-public-offerings")}`, ["x1", "x2"]],
    ["offering and offering_uuid narrow together", () => `offering=${offeringUrl(ref.x)}&offering_uuid=${ref.y}`, []],
    ["is_active=true", () => "is_active=true", ["x2", "y1"]],
    ["is_active=false", () => "is_active=false", ["x1"]],
    ["version (exact)", () => "version=1.0", ["x1", "y1"]],
    ["version with no exact match", () => "version=1", []],
    ["requires_reconsent=true", () => "requires_reconsent=true", ["x2"]],
    ["requires_reconsent=false", () => "requires_reconsent=false", ["x1", "y1"]],
  ];
  for (const [name, query, expected] of cases) {
    it(name, async () => expect(await keys(TERMS, terms, `${query()}&o=created`)).toEqual(expected));
  }

  it("orders by created (default newest first) and version", async () => {
    expect(await keys(TERMS, terms, "")).toEqual(["y1", "x2", "x1"]);
    expect(await keys(TERMS, terms, `offering_uuid=${ref.x}&o=-version`)).toEqual(["x2", "x1"]);
  });

  it("a malformed offering URL → 400 naming it", async () => {
    const res = await t.http("GET", `${TERMS}?offering=nope`, { token: t.world.tokens.staff });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(["offering"]);
  });
});

describe("consent list filters", () => {
  const userUrl = (uuid: string) => encodeURIComponent(`${t.baseUrl}/api/users/${uuid}/`);
  const cases: Array<[string, () => string, string[]]> = [
    ["user_uuid", () => `user_uuid=${ref.member}`, ["memberX", "memberY"]],
    ["user (URL)", () => `user=${userUrl(ref.admin)}`, ["adminX", "adminY"]],
    ["offering_uuid", () => `offering_uuid=${ref.y}`, ["memberY", "adminY"]],
    ["offering (URL)", () => `offering=${offeringUrl(ref.x)}`, ["memberX", "adminX"]],
    ["version (exact)", () => "version=2.0", ["adminX"]],
    ["has_consent=true: not revoked", () => "has_consent=true", ["memberX", "memberY", "adminY"]],
    ["has_consent=false: revoked", () => "has_consent=false", ["adminX"]],
    ["requires_reconsent=true: unrevoked, the active terms ask for it", () => "requires_reconsent=true", ["memberX"]],
    ["requires_reconsent=false", () => "requires_reconsent=false", ["adminX", "memberY", "adminY"]],
  ];
  for (const [name, query, expected] of cases) {
    it(name, async () => expect(await keys(CONSENTS, consents, `${query()}&o=created`)).toEqual(expected));
  }

  it("o=revocation_date: unrevoked last ascending, first descending (PostgreSQL as under Django)", async () => {
    expect(await keys(CONSENTS, consents, `user_uuid=${ref.admin}&o=revocation_date`)).toEqual(["adminX", "adminY"]);
    expect(await keys(CONSENTS, consents, `user_uuid=${ref.admin}&o=-revocation_date`)).toEqual(["adminY", "adminX"]);
    expect(await keys(CONSENTS, consents, "o=-agreement_date")).toEqual(["adminY", "memberY", "adminX", "memberX"]);
  });

  it("GraphQL takes the same filters under their argument names", async () => {
    const query = `query($consents: UserOfferingConsentFilter, $terms: TermsOfServiceFilter) {
      userOfferingConsents(filter: $consents) { nodes { uuid } }
      offeringTermsOfServices(filter: $terms) { nodes { uuid } } }`;
    const res = await t.gql(query, { consents: { hasConsent: false }, terms: { isActive: true, offeringUuid: [ref.x] } }, t.world.tokens.staff);
    expect(res.errors).toBeUndefined();
    expect(res.data.userOfferingConsents.nodes).toEqual([{ uuid: consents.adminX }]);
    expect(res.data.offeringTermsOfServices.nodes).toEqual([{ uuid: terms.x2 }]);
  });
});

describe("responses as py-client reads them", () => {
  const problems = (method: string, path: string, body: unknown) => responseProblems(waldurOperation(method, path)!, body);

  it("terms: list (with the caller's consent), retrieve, create (echoing the offering) and update", async () => {
    const mine = await t.http("GET", `${TERMS}?offering_uuid=${ref.x}&is_active=true`, { token: t.world.tokens.projectMember });
    expect(mine.body[0].user_consent).toMatchObject({ uuid: consents.memberX, version: "1.0", is_revoked: false });
    expect(problems("GET", TERMS, mine.body)).toEqual([]);
    expect(problems("GET", `${TERMS}:uuid/`, (await t.http("GET", `${TERMS}${terms.x1}/`, { token: t.world.tokens.staff })).body)).toEqual([]);
    const created = await t.http("POST", TERMS, { token: t.world.tokens.staff, body: { offering: decodeURIComponent(offeringUrl(ref.y)), version: "9" } });
    expect(created.status).toBe(201);
    expect(created.body.offering).toBe(decodeURIComponent(offeringUrl(ref.y)));
    expect(problems("POST", TERMS, created.body)).toEqual([]);
    const updated = await t.http("PATCH", `${TERMS}${created.body.uuid}/`, { token: t.world.tokens.staff, body: { grace_period_days: 5 } });
    expect(problems("PATCH", `${TERMS}:uuid/`, updated.body)).toEqual([]);
  });

  it("consents: create (echoing the offering), list, retrieve and revoke, with slug and collected attributes", async () => {
    const token = t.world.tokens.unrelated;
    const created = await t.http("POST", CONSENTS, { token, body: { offering: ref.x } });
    expect(created.status).toBe(201);
    expect(created.body.offering).toBe(ref.x);
    expect(problems("POST", CONSENTS, created.body)).toEqual([]);
    const list = await t.http("GET", CONSENTS, { token: t.world.tokens.staff });
    expect(list.body).toHaveLength(5);
    expect(list.body[0]).toMatchObject({ offering_slug: expect.stringMatching(/^hpc/), collected_attributes: ["username", "full_name", "first_name", "last_name", "email"] });
    expect(problems("GET", CONSENTS, list.body)).toEqual([]);
    expect(problems("GET", `${CONSENTS}:uuid/`, (await t.http("GET", `${CONSENTS}${created.body.uuid}/`, { token })).body)).toEqual([]);
    const revoked = await t.http("POST", `${CONSENTS}${created.body.uuid}/revoke/`, { token });
    expect(revoked.status).toBe(200);
    expect(problems("POST", `${CONSENTS}:uuid/revoke/`, revoked.body)).toEqual([]);
  });
});
