import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { globalId } from "../../test/support/global-ids.ts";

const DAY = 86_400_000;
let clock = new Date("2030-01-01T00:00:00Z").getTime();
let t: TestApp;
const CONSENTS = "/api/marketplace-user-offering-consents/";

beforeAll(async () => {
  t = await startTestApp({}, { now: () => new Date(clock) });
});
afterAll(() => t.close());

async function offeringWithTerms(name: string, terms: { version: string; requiresReconsent?: boolean; gracePeriodDays?: number } | null) {
  const offering = await t.app.deps.db.offering.create({
    data: { customerId: t.world.provider.id, name, type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: { service_provider_can_create_offering_user: true } },
  });
  if (terms) {
    await t.app.deps.db.offeringTermsOfService.create({
      data: { offeringId: offering.id, isActive: true, activatedAt: new Date(clock), version: terms.version, requiresReconsent: terms.requiresReconsent ?? false, gracePeriodDays: terms.gracePeriodDays ?? 60 },
    });
  }
  return { id: offering.id, uuid: offering.id.replaceAll("-", "") };
}

const consent = (offeringUuid: string, token: string) => t.http("POST", CONSENTS, { token, body: { offering: offeringUuid } });

describe("user consents", () => {
  it("grants consent to the active version (201), refuses a second one, and needs active terms", async () => {
    const offering = await offeringWithTerms("Consent", { version: "3.1" });
    const res = await consent(offering.uuid, t.world.tokens.projectMember);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      version: "3.1", revocation_date: null, has_consent: true, requires_reconsent: false,
      offering_uuid: offering.uuid, user_username: "projectMember", agreement_date: "2030-01-01T00:00:00Z",
    });
    expect((await consent(offering.uuid, t.world.tokens.projectMember)).status).toBe(400);
    const none = await offeringWithTerms("No terms", null);
    expect(await consent(none.uuid, t.world.tokens.projectMember)).toMatchObject({
      status: 400,
      body: { offering: ["This offering has no active terms of service."] },
    });
  });

  it("revokes (owner or staff only) and reactivates the same record on a new consent", async () => {
    const offering = await offeringWithTerms("Revoke", { version: "1" });
    const granted = await consent(offering.uuid, t.world.tokens.projectAdmin);
    const path = `${CONSENTS}${granted.body.uuid}/revoke/`;
    expect((await t.http("POST", path, { token: t.world.tokens.projectManager })).status).toBe(404);
    expect(await t.http("POST", path, { token: t.world.tokens.support })).toMatchObject({
      status: 403,
      body: { detail: "You don't have permission to revoke this consent." },
    });
    const revoked = await t.http("POST", path, { token: t.world.tokens.projectAdmin });
    expect(revoked).toMatchObject({ status: 200, body: { revocation_date: "2030-01-01T00:00:00Z", has_consent: false } });
    expect((await t.http("POST", path, { token: t.world.tokens.projectAdmin })).status).toBe(400);
    const again = await consent(offering.uuid, t.world.tokens.projectAdmin);
    expect(again).toMatchObject({ status: 201, body: { uuid: granted.body.uuid, revocation_date: null, has_consent: true } });
    const events = await t.http("GET", `/api/events/?event_type=terms_of_service_consent_granted&event_type=terms_of_service_consent_revoked&user_uuid=${t.world.users.projectAdmin.uuid}&o=created`, {
      token: t.world.tokens.staff,
    });
    expect(events.body.map((e: { event_type: string }) => e.event_type)).toEqual([
      "terms_of_service_consent_granted",
      "terms_of_service_consent_revoked",
      "terms_of_service_consent_granted",
    ]);
  });

  it("lists only the caller's consents; staff see everyone's", async () => {
    const offering = await offeringWithTerms("Lists", { version: "1" });
    await consent(offering.uuid, t.world.tokens.unrelated);
    await consent(offering.uuid, t.world.tokens.providerManager);
    const mine = await t.http("GET", `${CONSENTS}?offering_uuid=${offering.uuid}`, { token: t.world.tokens.unrelated });
    expect(mine.body.map((c: { user_username: string }) => c.user_username)).toEqual(["unrelated"]);
    const all = await t.http("GET", `${CONSENTS}?offering_uuid=${offering.uuid}`, { token: t.world.tokens.staff });
    expect(all.body.map((c: { user_username: string }) => c.user_username).sort()).toEqual(["providerManager", "unrelated"]);
    expect(all.headers.get("x-result-count")).toBe("2");
  });

  it("asks for reconsent when a new version requires it, and lets the old consent expire after the grace period", async () => {
    const offering = await offeringWithTerms("Reconsent", { version: "1" });
    const granted = await consent(offering.uuid, t.world.tokens.projectMember);
    await t.app.deps.db.offeringTermsOfService.updateMany({ where: { offeringId: offering.id }, data: { isActive: false } });
    await t.app.deps.db.offeringTermsOfService.create({
      data: { offeringId: offering.id, isActive: true, version: "2", requiresReconsent: true, gracePeriodDays: 10, activatedAt: new Date(clock) },
    });
    const read = () => t.http("GET", `${CONSENTS}${granted.body.uuid}/`, { token: t.world.tokens.projectMember });
    expect((await read()).body).toMatchObject({ has_consent: true, requires_reconsent: true, version: "1" });
    clock += 11 * DAY;
    expect((await read()).body).toMatchObject({ has_consent: false, requires_reconsent: true });
    const renewed = await consent(offering.uuid, t.world.tokens.projectMember);
    expect(renewed.body).toMatchObject({ version: "2", has_consent: true, requires_reconsent: false });
  });
});

describe("offerings the caller cannot see", () => {
  async function draftWithTerms() {
    const offering = await t.app.deps.db.offering.create({
      data: { customerId: t.world.provider.id, name: "Secret draft", type: "Marketplace.Slurm", state: "DRAFT" },
    });
    await t.app.deps.db.offeringTermsOfService.create({ data: { offeringId: offering.id, isActive: true, version: "1", termsOfService: "secret terms" } });
    return { id: offering.id, uuid: offering.id.replaceAll("-", "") };
  }

  it("a consent to a draft offering of another organisation is an unknown offering: 400, nothing recorded, terms stay hidden", async () => {
    const draft = await draftWithTerms();
    for (const persona of ["unrelated", "projectMember", "projectAdmin"] as const) {
      const res = await consent(draft.uuid, t.world.tokens[persona]);
      expect(res).toMatchObject({ status: 400, body: { offering: ["Invalid hyperlink - Object does not exist."] } });
      const terms = await t.http("GET", `/api/marketplace-offering-terms-of-service/?offering_uuid=${draft.uuid}`, { token: t.world.tokens[persona] });
      expect(terms.body).toEqual([]);
    }
    const graphql = await t.gql(
      `mutation($o: ID!) { grantOfferingConsent(input: { offeringUuid: $o }) { ... on UserOfferingConsent { uuid } ${failuresOf("grantOfferingConsent")} } }`,
      { o: draft.uuid },
      t.world.tokens.unrelated,
    );
    expect(graphql.data.grantOfferingConsent).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(graphql.data.grantOfferingConsent)).toEqual({ offeringUuid: ["Object does not exist."] });
    expect(await t.app.deps.db.userOfferingConsent.count({ where: { offeringId: draft.id } })).toBe(0);
    expect(await t.app.deps.db.event.count({ where: { eventType: "terms_of_service_consent_granted", context: { path: ["offering_uuid"], equals: draft.uuid } } })).toBe(0);
  });

  it("the draft's own organisation (and staff) may consent", async () => {
    const draft = await draftWithTerms();
    expect((await consent(draft.uuid, t.world.tokens.providerManager)).status).toBe(201);
    expect((await consent(draft.uuid, t.world.tokens.staff)).status).toBe(201);
  });
});

describe("errors over GraphQL name GraphQL's arguments", () => {
  const GRANT = `mutation($o: ID!) { grantOfferingConsent(input: { offeringUuid: $o }) { ... on UserOfferingConsent { uuid } ${failuresOf("grantOfferingConsent")} } }`;
  const REVOKE = `mutation($id: ID!) { revokeOfferingConsent(input: { id: $id }) { ... on UserOfferingConsent { revocationDate } ${failuresOf("revokeOfferingConsent")} } }`;
  const grant = async (o: string, token: string) => (await t.gql(GRANT, { o }, token)).data.grantOfferingConsent;
  const revoke = async (uuid: string, token: string) =>
    (await t.gql(REVOKE, { id: globalId("UserOfferingConsent", uuid) }, token)).data.revokeOfferingConsent;

  it("offeringUuid for an offering without terms; the whole input for a repeated consent or revocation", async () => {
    const token = t.world.tokens.projectMember;
    const none = await offeringWithTerms("GraphQL no terms", null);
    expect(fieldsOf(await grant(none.uuid, token))).toEqual({ offeringUuid: ["This offering has no active terms of service."] });

    const offering = await offeringWithTerms("GraphQL consent", { version: "1" });
    const granted = await grant(offering.uuid, token);
    expect(granted).toEqual({ uuid: expect.any(String) });
    expect(fieldsOf(await grant(offering.uuid, token))).toEqual({
      input: ["You have already consented to the current terms of service of this offering."],
    });
    expect(await revoke(granted.uuid, token)).toEqual({ revocationDate: expect.any(String) });
    expect(await revoke(granted.uuid, token)).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(await revoke(granted.uuid, token))).toEqual({ input: ["This consent is already revoked."] });
  });

  it("REST still answers these as Waldur does", async () => {
    const token = t.world.tokens.projectManager;
    const offering = await offeringWithTerms("REST consent", { version: "1" });
    const granted = await consent(offering.uuid, token);
    expect(await consent(offering.uuid, token)).toMatchObject({
      status: 400,
      body: { non_field_errors: ["You have already consented to the current terms of service of this offering."] },
    });
    const path = `${CONSENTS}${granted.body.uuid}/revoke/`;
    await t.http("POST", path, { token });
    expect(await t.http("POST", path, { token })).toMatchObject({ status: 400, body: { non_field_errors: ["This consent is already revoked."] } });
  });
});
