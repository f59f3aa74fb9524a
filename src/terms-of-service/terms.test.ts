import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import type { Persona } from "../../test/support/world.ts";

let t: TestApp;
const BASE = "/api/marketplace-offering-terms-of-service/";
let offeringUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  offeringUrl = `${t.baseUrl}/api/marketplace-provider-offerings/${t.world.offering.uuid}/`;
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, token = t.world.tokens.providerOwner) => t.http("POST", BASE, { token, body });

async function freshOffering(name: string) {
  const offering = await t.app.deps.db.offering.create({
    data: { customerId: t.world.provider.id, name, type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: { service_provider_can_create_offering_user: true } },
  });
  return { id: offering.id, url: `${t.baseUrl}/api/marketplace-provider-offerings/${offering.id.replaceAll("-", "")}/` };
}

describe("terms-of-service configurations", () => {
  it("creates with Waldur's fields and defaults", async () => {
    const { url } = await freshOffering("Fields");
    const res = await create({ offering: url, terms_of_service: "<p>Rules</p>", version: "1.0" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ["created", "grace_period_days", "has_user_consent", "is_active", "modified", "offering", "offering_name", "offering_uuid",
        "requires_reconsent", "terms_of_service", "terms_of_service_link", "user_consent", "uuid", "version"].sort(),
    );
    expect(res.body.offering).toBe(url);
    expect(res.body).toMatchObject({ grace_period_days: 60, is_active: false, requires_reconsent: false, user_consent: null, has_user_consent: false, version: "1.0" });
    expect(res.body.uuid).toMatch(/^[0-9a-f]{32}$/);
  });

  it.each([
    ["projectAdmin", 403],
    ["unrelated", 403],
    ["providerSupport", 403],
    ["support", 403],
    ["offeringManager", 201],
    ["providerManager", 201],
    ["staff", 201],
  ] as const)("create as %s → %i", async (persona, status) => {
    const res = await create({ offering: offeringUrl, version: `by-${persona}` }, t.world.tokens[persona]);
    expect(res.status).toBe(status);
  });

  /** Update and delete need what create needs: UPDATE_OFFERING on the offering or its customer. 404: terms the caller cannot see. */
  const CHANGES: Array<[Persona, number]> = [
    ["staff", 200],
    ["providerOwner", 200],
    ["providerManager", 200],
    ["offeringManager", 200],
    ["providerSupport", 403],
    ["support", 403],
    ["projectAdmin", 404],
    ["unrelated", 404],
  ];
  it.each(CHANGES)("PATCH, PUT and DELETE as %s → %i", async (persona, status) => {
    const created = await create({ offering: offeringUrl, version: `change-${persona}`, terms_of_service: "a" });
    const path = `${BASE}${created.body.uuid}/`;
    const token = t.world.tokens[persona];
    expect((await t.http("PATCH", path, { token, body: { terms_of_service: "patched" } })).status).toBe(status);
    expect((await t.http("PUT", path, { token, body: { terms_of_service: "put" } })).status).toBe(status);
    const stored = await t.app.deps.db.offeringTermsOfService.findFirstOrThrow({ where: { version: `change-${persona}` } });
    expect(stored.termsOfService).toBe(status === 200 ? "put" : "a");
    expect((await t.http("DELETE", path, { token })).status).toBe(status === 200 ? 204 : status);
    expect(await t.app.deps.db.offeringTermsOfService.count({ where: { id: stored.id } })).toBe(status === 200 ? 0 : 1);
  });

  it("an offering manager cannot change the terms of another offering of the same organisation", async () => {
    const { url } = await freshOffering("Not managed");
    const created = await create({ offering: url, version: "other", is_active: true });
    const path = `${BASE}${created.body.uuid}/`;
    const token = t.world.tokens.offeringManager;
    expect((await t.http("PATCH", path, { token, body: { terms_of_service: "x" } })).status).toBe(403);
    expect((await t.http("DELETE", path, { token })).status).toBe(403);
  });

  it("a draft offering of another organisation is unknown to the caller (400, not 403)", async () => {
    const draft = await t.app.deps.db.offering.create({ data: { customerId: t.world.provider.id, name: "Draft", type: "Marketplace.Slurm", state: "DRAFT" } });
    const url = `${t.baseUrl}/api/marketplace-provider-offerings/${draft.id.replaceAll("-", "")}/`;
    expect(await create({ offering: url }, t.world.tokens.unrelated)).toMatchObject({ status: 400, body: { offering: ["Invalid hyperlink - Object does not exist."] } });
    expect((await create({ offering: url }, t.world.tokens.providerOwner)).status).toBe(201);
  });

  it("rejects anonymous callers, unknown offerings and bad values", async () => {
    expect((await t.http("POST", BASE, { body: { offering: offeringUrl } })).status).toBe(401);
    const unknown = await create({ offering: `${t.baseUrl}/api/marketplace-provider-offerings/${"0".repeat(32)}/` });
    expect(unknown).toMatchObject({ status: 400, body: { offering: ["Invalid hyperlink - Object does not exist."] } });
    expect((await create({ offering: offeringUrl, grace_period_days: -1 })).body).toEqual({
      grace_period_days: ["Ensure this value is greater than or equal to 0."],
    });
    expect((await create({ offering: offeringUrl, terms_of_service_link: "nope" })).body).toEqual({ terms_of_service_link: ["Enter a valid URL."] });
  });

  it("allows one active configuration per offering, by create and by activation", async () => {
    const { url } = await freshOffering("One active");
    const first = await create({ offering: url, version: "1", is_active: true });
    expect(first.status).toBe(201);
    const second = await create({ offering: url, version: "2", is_active: true });
    expect(second.status).toBe(400);
    expect(second.body.is_active[0]).toMatch(/Only one active/);
    const inactive = await create({ offering: url, version: "2" });
    expect(inactive.status).toBe(201);
    const token = t.world.tokens.providerOwner;
    expect((await t.http("PATCH", `${BASE}${inactive.body.uuid}/`, { token, body: { is_active: true } })).status).toBe(400);
    expect((await t.http("PATCH", `${BASE}${first.body.uuid}/`, { token, body: { is_active: false } })).status).toBe(200);
    const activated = await t.http("PATCH", `${BASE}${inactive.body.uuid}/`, { token, body: { is_active: true } });
    expect(activated).toMatchObject({ status: 200, body: { is_active: true, version: "2" } });
  });

  it("holds the one-active rule under concurrent requests", async () => {
    const { id, url } = await freshOffering("Race");
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => create({ offering: url, version: `v${i}`, is_active: true })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(11);
    expect(await t.app.deps.db.offeringTermsOfService.count({ where: { offeringId: id, isActive: true } })).toBe(1);
  });

  it("keeps version and requires_reconsent as created (PATCH and PUT ignore them)", async () => {
    const { url } = await freshOffering("Immutable");
    const created = await create({ offering: url, version: "1.0", requires_reconsent: false, terms_of_service: "a" });
    for (const method of ["PATCH", "PUT"]) {
      const res = await t.http(method, `${BASE}${created.body.uuid}/`, {
        token: t.world.tokens.providerOwner,
        body: { version: "9.9", requires_reconsent: true, terms_of_service: `changed by ${method}`, grace_period_days: 7 },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ version: "1.0", requires_reconsent: false, terms_of_service: `changed by ${method}`, grace_period_days: 7 });
    }
  });

  it("deletes for good (204) and records created/updated/deleted events", async () => {
    const { url, id } = await freshOffering("Delete");
    const created = await create({ offering: url, version: "1" });
    await t.http("PATCH", `${BASE}${created.body.uuid}/`, { token: t.world.tokens.providerOwner, body: { terms_of_service: "x" } });
    expect((await t.http("DELETE", `${BASE}${created.body.uuid}/`, { token: t.world.tokens.projectAdmin })).status).toBe(404);
    expect((await t.http("DELETE", `${BASE}${created.body.uuid}/`, { token: t.world.tokens.providerOwner })).status).toBe(204);
    expect((await t.http("GET", `${BASE}${created.body.uuid}/`, { token: t.world.tokens.staff })).status).toBe(404);
    const events = await t.http("GET", `/api/events/?scope=${encodeURIComponent(url)}&o=created`, { token: t.world.tokens.staff });
    expect(events.body.map((e: { event_type: string }) => e.event_type)).toEqual([
      "terms_of_service_created",
      "terms_of_service_updated",
      "terms_of_service_deleted",
    ]);
    expect(id).toBeTruthy();
  });

  it("shows an unrelated user only active terms of active offerings; filters and ordering work", async () => {
    const { url } = await freshOffering("Visibility");
    const active = await create({ offering: url, version: "b", is_active: true, requires_reconsent: true });
    const inactive = await create({ offering: url, version: "a" });
    const offeringUuid = url.split("/").at(-2);
    const seen = async (token: string, query = "") =>
      (await t.http("GET", `${BASE}?offering_uuid=${offeringUuid}${query}`, { token })).body.map((x: { uuid: string }) => x.uuid);
    expect(await seen(t.world.tokens.unrelated)).toEqual([active.body.uuid]);
    expect(await seen(t.world.tokens.providerOwner, "&o=version")).toEqual([inactive.body.uuid, active.body.uuid]);
    expect(await seen(t.world.tokens.providerOwner, "&is_active=false")).toEqual([inactive.body.uuid]);
    expect(await seen(t.world.tokens.providerOwner, "&requires_reconsent=true")).toEqual([active.body.uuid]);
    expect(await seen(t.world.tokens.providerOwner, "&version=a")).toEqual([inactive.body.uuid]);
    expect(await seen(t.world.tokens.providerOwner, `&offering=${encodeURIComponent(url)}&o=-version`)).toEqual([active.body.uuid, inactive.body.uuid]);
    expect((await t.http("GET", `${BASE}${inactive.body.uuid}/`, { token: t.world.tokens.unrelated })).status).toBe(404);
    expect((await t.http("GET", `${BASE}?o=bogus`, { token: t.world.tokens.unrelated })).status).toBe(400);
  });

  it("publishes a new version in one step: the active one steps down, both changes recorded; a refused version changes nothing", async () => {
    const { url } = await freshOffering("Publish");
    const offeringUuid = url.split("/").at(-2);
    const first = await create({ offering: url, version: "1", is_active: true });
    const publish = `mutation($o: ID!, $v: String!, $link: String) { publishOfferingTermsOfService(input: { offeringUuid: $o, version: $v, termsOfServiceLink: $link }) {
      ... on OfferingTermsOfService { uuid version isActive } ${failuresOf("publishOfferingTermsOfService")} } }`;
    const active = async () => (await t.http("GET", `${BASE}?offering_uuid=${offeringUuid}&is_active=true`, { token: t.world.tokens.staff })).body.map((x: { version: string }) => x.version);

    const refused = (await t.gql(publish, { o: offeringUuid, v: "2", link: "not a url" }, t.world.tokens.providerOwner)).data.publishOfferingTermsOfService;
    expect(refused).toMatchObject({ __typename: "ValidationError" });
    expect(Object.keys(fieldsOf(refused))).toEqual(["termsOfServiceLink"]);
    expect(await active()).toEqual(["1"]);
    const asStranger = (await t.gql(publish, { o: offeringUuid, v: "2" }, t.world.tokens.projectAdmin)).data.publishOfferingTermsOfService;
    expect(asStranger.__typename).not.toBe("OfferingTermsOfService");
    expect(await active()).toEqual(["1"]);

    const published = (await t.gql(publish, { o: offeringUuid, v: "2" }, t.world.tokens.providerOwner)).data.publishOfferingTermsOfService;
    expect(published).toMatchObject({ version: "2", isActive: true });
    expect(await active()).toEqual(["2"]);
    expect((await t.http("GET", `${BASE}${first.body.uuid}/`, { token: t.world.tokens.staff })).body.is_active).toBe(false);
    const events = await t.http("GET", `/api/events/?scope=${encodeURIComponent(url)}&o=created`, { token: t.world.tokens.staff });
    expect(events.body.map((e: { event_type: string; context: { version: string; is_active?: boolean } }) => [e.event_type, e.context.version, e.context.is_active])).toEqual([
      ["terms_of_service_created", "1", true],
      ["terms_of_service_updated", "1", false],
      ["terms_of_service_created", "2", true],
    ]);
  });

  it("is the same over GraphQL", async () => {
    const { url } = await freshOffering("GraphQL");
    const offeringUuid = url.split("/").at(-2);
    const create = `mutation($o: ID!, $v: String!) { createOfferingTermsOfService(input: { offeringUuid: $o, version: $v, isActive: true }) {
      ... on OfferingTermsOfService { uuid isActive gracePeriodDays offering { name } } ${failuresOf("createOfferingTermsOfService")} } }`;
    const created = await t.gql(create, { o: offeringUuid, v: "g1" }, t.world.tokens.providerOwner);
    expect(created.data.createOfferingTermsOfService).toMatchObject({ isActive: true, gracePeriodDays: 60, offering: { name: "GraphQL" } });
    const again = (await t.gql(create, { o: offeringUuid, v: "g2" }, t.world.tokens.providerOwner)).data.createOfferingTermsOfService;
    expect(again).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(Object.keys(fieldsOf(again))).toEqual(["isActive"]);
  });
});
