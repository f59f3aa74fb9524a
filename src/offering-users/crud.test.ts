import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { toHex } from "../platform/ids.ts";
import { INTERNAL_OFFERING_USER_TRANSITIONS } from "./transitions.ts";

const BASE = "/api/marketplace-offering-users/";
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/;
const HEX32 = /^[0-9a-f]{32}$/;
const dashed = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

let t: TestApp;
let owner: string;
let userSeq = 0;
beforeAll(async () => {
  t = await startTestApp();
  owner = t.world.tokens.providerOwner;
});
afterAll(() => t.close());

const url = (collection: string, hex: string) => `${t.baseUrl}/api/${collection}/${hex}/`;
const db = () => t.app.deps.db;

async function freshUser() {
  userSeq += 1;
  const user = await db().user.create({
    data: { username: `crud${userSeq}`, firstName: "Ada", lastName: `Lovelace${userSeq}`, email: `crud${userSeq}@example.org` },
  });
  return { ...user, uuid: toHex(user.id) };
}

const eventsOf = (offeringUserId: string) =>
  db().event.findMany({
    where: { scopes: { some: { scopeType: "OFFERING_USER", scopeId: offeringUserId } } },
    orderBy: { id: "asc" },
  });

const rowOf = (id: string) => db().offeringUser.findUnique({ where: { id } });

describe("POST /api/marketplace-offering-users/", () => {
  it("creates from offering and user URLs: 201 with Waldur's full field set", async () => {
    const user = await freshUser();
    const res = await t.http("POST", BASE, {
      token: owner,
      body: { offering: url("marketplace-provider-offerings", t.world.offering.uuid), user: url("users", user.uuid) },
    });
    expect(res.status).toBe(201);
    const uuid = res.body.uuid as string;
    expect(uuid).toMatch(HEX32);
    expect(res.body).toEqual({
      url: url("marketplace-offering-users", uuid),
      uuid,
      username: null,
      state: "Requested",
      runtime_state: "Active",
      offering: url("marketplace-provider-offerings", t.world.offering.uuid),
      offering_uuid: t.world.offering.uuid,
      offering_name: "HPC",
      offering_has_active_tos: false,
      user: url("users", user.uuid),
      user_uuid: user.uuid,
      user_username: user.username,
      user_full_name: `Ada ${user.lastName}`,
      user_first_name: "Ada",
      user_last_name: user.lastName,
      user_email: user.email,
      customer_uuid: t.world.provider.uuid,
      customer_name: "Provider Org",
      is_restricted: false,
      service_provider_comment: "",
      service_provider_comment_url: "",
      backend_metadata: {},
      // No active terms of service on the offering (src/terms-of-service/consent-status.ts: NOT_REQUIRED).
      has_consent: false,
      requires_reconsent: false,
      created: expect.stringMatching(ISO_Z),
      modified: expect.stringMatching(ISO_Z),
    });
    const row = await db().offeringUser.findFirstOrThrow({ where: { offeringId: t.world.offering.id, userId: user.id } });
    expect(toHex(row.id)).toBe(uuid);
    expect(row.state).toBe("CREATION_REQUESTED");
    expect((await eventsOf(row.id)).map((e) => e.eventType)).toEqual(["marketplace_offering_user_created"]);
  });

  it("creates from offering_uuid and user_uuid (hex or dashed)", async () => {
    const user = await freshUser();
    const res = await t.http("POST", BASE, { token: owner, body: { offering_uuid: dashed(t.world.offering.uuid), user_uuid: user.uuid } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ offering_uuid: t.world.offering.uuid, user_uuid: user.uuid, state: "Requested" });
  });

  it("a username given at creation puts the record straight into OK", async () => {
    const user = await freshUser();
    const res = await t.http("POST", BASE, { token: owner, body: { offering_uuid: t.world.offering.uuid, user_uuid: user.uuid, username: "ada" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: "ada", state: "OK" });
  });

  it("an empty username at creation leaves the record Requested", async () => {
    const user = await freshUser();
    const res = await t.http("POST", BASE, { token: owner, body: { offering_uuid: t.world.offering.uuid, user_uuid: user.uuid, username: "" } });
    expect(res.status).toBe(201);
    expect(res.body.state).toBe("Requested");
  });

  it("both URL and uuid forms → 400; neither → 400; nothing is created", async () => {
    const user = await freshUser();
    const both = await t.http("POST", BASE, {
      token: owner,
      body: {
        offering: url("marketplace-provider-offerings", t.world.offering.uuid),
        user: url("users", user.uuid),
        offering_uuid: t.world.offering.uuid,
        user_uuid: user.uuid,
      },
    });
    expect(both.status).toBe(400);
    expect(Object.keys(both.body)).toEqual(["non_field_errors"]);
    expect(both.body.non_field_errors).toHaveLength(1);

    const neither = await t.http("POST", BASE, { token: owner, body: { username: "x" } });
    expect(neither.status).toBe(400);
    expect(Object.keys(neither.body)).toEqual(["non_field_errors"]);
    expect(await db().offeringUser.count({ where: { userId: user.id } })).toBe(0);
  });

  it("a second record for the same (offering, user) → 400 non_field_errors", async () => {
    const user = await freshUser();
    const body = { offering_uuid: t.world.offering.uuid, user_uuid: user.uuid };
    expect((await t.http("POST", BASE, { token: owner, body })).status).toBe(201);
    const again = await t.http("POST", BASE, { token: owner, body });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ non_field_errors: ["The fields offering, user must make a unique set."] });
    expect(await db().offeringUser.count({ where: { userId: user.id } })).toBe(1);
  });

  it("an offering that does not allow offering users → 400", async () => {
    const closed = await db().offering.create({
      data: { customerId: t.world.provider.id, name: "Closed", type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: {} },
    });
    const user = await freshUser();
    const res = await t.http("POST", BASE, { token: owner, body: { offering_uuid: toHex(closed.id), user_uuid: user.uuid } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ offering: ["It is not allowed to create users for current offering."] });
    expect(await db().offeringUser.count({ where: { userId: user.id } })).toBe(0);
  });

  it("unknown or wrong-collection hyperlinks → 400 Invalid hyperlink", async () => {
    const user = await freshUser();
    const missing = "0123456789abcdef0123456789abcdef";
    const cases: Array<[Record<string, string>, Record<string, string[]>]> = [
      [{ offering: url("marketplace-provider-offerings", missing), user: url("users", user.uuid) }, { offering: ["Invalid hyperlink - Object does not exist."] }],
      [{ offering: url("marketplace-provider-offerings", t.world.offering.uuid), user: url("users", missing) }, { user: ["Invalid hyperlink - Object does not exist."] }],
      [{ offering: url("users", user.uuid), user: url("users", user.uuid) }, { offering: ["Invalid hyperlink - Object does not exist."] }],
    ];
    for (const [body, expected] of cases) {
      const res = await t.http("POST", BASE, { token: owner, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(expected);
    }
    expect(await db().offeringUser.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("GET /api/marketplace-offering-users/{uuid}/", () => {
  it("accepts the hex and the dashed uuid alike", async () => {
    const ou = await t.world.offeringUser("CREATING");
    const hex = await t.http("GET", `${BASE}${ou.uuid}/`, { token: owner });
    const withDashes = await t.http("GET", `${BASE}${dashed(ou.uuid)}/`, { token: owner });
    expect(hex.status).toBe(200);
    expect(hex.body).toMatchObject({ uuid: ou.uuid, state: "Creating" });
    expect(withDashes.status).toBe(200);
    expect(withDashes.body).toEqual(hex.body);
  });

  it("a malformed or unknown uuid → 404 Not found.", async () => {
    for (const id of ["not-a-uuid", "0123456789abcdef0123456789abcdeg", "0123456789abcdef0123456789abcdef"]) {
      const res = await t.http("GET", `${BASE}${id}/`, { token: owner });
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ detail: "Not found." });
    }
  });
});

describe("PUT/PATCH: pushing back the username", () => {
  const finishing = INTERNAL_OFFERING_USER_TRANSITIONS.username_assigned.from;
  const staying: OfferingUserState[] = ["OK", "DELETION_REQUESTED", "DELETING", "DELETED", "ERROR_DELETING"];

  for (const [method, from] of finishing.flatMap((s) => [["PATCH", s], ["PUT", s]] as const)) {
    it(`${method} a new username from ${from} → OK, comments cleared, one event`, async () => {
      const ou = await t.world.offeringUser(from, { comment: "see docs" });
      await db().offeringUser.update({ where: { id: ou.id }, data: { serviceProviderCommentUrl: "https://docs.example.org" } });
      // Over a socket: the event records the client's address.
      const res = await t.socketHttp(method, `${BASE}${ou.uuid}/`, { token: owner, body: { username: "ada.l" } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        uuid: ou.uuid, username: "ada.l", state: "OK", service_provider_comment: "", service_provider_comment_url: "",
      });
      const events = await eventsOf(ou.id);
      expect(events).toHaveLength(1);
      expect(events[0].eventType).toBe("marketplace_offering_user_updated");
      expect(events[0].context).toMatchObject({
        old_username: null, new_username: "ada.l", affected_user_uuid: toHex(ou.userId), ip_address: "127.0.0.1",
      });
    });
  }

  for (const from of staying) {
    it(`PATCH a new username in ${from} changes only the username`, async () => {
      const ou = await t.world.offeringUser(from, { username: "old", comment: "kept" });
      const res = await t.http("PATCH", `${BASE}${ou.uuid}/`, { token: owner, body: { username: "new" } });
      expect(res.status).toBe(200);
      const row = await rowOf(ou.id);
      expect(row).toMatchObject({ username: "new", state: from, serviceProviderComment: "kept" });
      expect((await eventsOf(ou.id))[0].context).toMatchObject({ old_username: "old", new_username: "new" });
    });
  }

  it("the same username again changes nothing and records no event", async () => {
    const ou = await t.world.offeringUser("CREATING", { username: "same" });
    const before = await rowOf(ou.id);
    const res = await t.http("PATCH", `${BASE}${ou.uuid}/`, { token: owner, body: { username: "same" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: "same", state: "Creating" });
    expect(await rowOf(ou.id)).toEqual(before);
    expect(await eventsOf(ou.id)).toHaveLength(0);
  });

  it('username "" is allowed and audited, without a state change', async () => {
    const ou = await t.world.offeringUser("OK", { username: "ada" });
    const res = await t.http("PUT", `${BASE}${ou.uuid}/`, { token: owner, body: { username: "" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: "", state: "OK" });
    const events = await eventsOf(ou.id);
    expect(events).toHaveLength(1);
    expect(events[0].context).toMatchObject({ old_username: "ada", new_username: "" });
  });

  it("a username longer than 100 characters → 400", async () => {
    const ou = await t.world.offeringUser("CREATING");
    const res = await t.http("PATCH", `${BASE}${ou.uuid}/`, { token: owner, body: { username: "u".repeat(101) } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ username: ["Ensure this field has no more than 100 characters."] });
    expect(await rowOf(ou.id)).toMatchObject({ username: null, state: "CREATING" });
  });
});

describe("PATCH update_comments", () => {
  it("returns just the two fields, keeps the state, records one event with changed_fields", async () => {
    const ou = await t.world.offeringUser("PENDING_ACCOUNT_LINKING", { comment: "old" });
    const res = await t.http("PATCH", `${BASE}${ou.uuid}/update_comments/`, {
      token: owner,
      body: { service_provider_comment: "Link at portal", service_provider_comment_url: "https://portal.example.org" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ service_provider_comment: "Link at portal", service_provider_comment_url: "https://portal.example.org" });
    expect(await rowOf(ou.id)).toMatchObject({ state: "PENDING_ACCOUNT_LINKING", serviceProviderComment: "Link at portal" });
    const events = await eventsOf(ou.id);
    expect(events).toHaveLength(1);
    expect(events[0].eventType).toBe("marketplace_offering_user_updated");
    expect(events[0].context).toMatchObject({
      changed_fields: ["service_provider_comment", "service_provider_comment_url"],
      new_service_provider_comment: "Link at portal",
      new_service_provider_comment_url: "https://portal.example.org",
    });
  });

  it("on a Deleted record → 403 with Waldur's message, nothing changes", async () => {
    const ou = await t.world.offeringUser("DELETED", { comment: "gone" });
    const res = await t.http("PATCH", `${BASE}${ou.uuid}/update_comments/`, { token: owner, body: { service_provider_comment: "new" } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: "Cannot update comments for offering user in state: Deleted" });
    expect((await rowOf(ou.id))?.serviceProviderComment).toBe("gone");
    expect(await eventsOf(ou.id)).toHaveLength(0);
  });
});

describe("DELETE /api/marketplace-offering-users/{uuid}/", () => {
  it("204 with no body; the row is gone; marketplace_offering_user_deleted is recorded", async () => {
    const ou = await t.world.offeringUser("OK", { username: "bye" });
    const res = await t.http("DELETE", `${BASE}${ou.uuid}/`, { token: owner });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await rowOf(ou.id)).toBeNull();
    expect((await eventsOf(ou.id)).map((e) => e.eventType)).toEqual(["marketplace_offering_user_deleted"]);
    expect((await t.http("GET", `${BASE}${ou.uuid}/`, { token: owner })).status).toBe(404);
  });

  it("without DELETE_OFFERING_USER → 403 with Waldur's message; the row stays", async () => {
    const ou = await t.world.offeringUser("OK");
    const res = await t.http("DELETE", `${BASE}${ou.uuid}/`, { token: t.world.tokens.providerSupport });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: "You do not have permission to delete this user." });
    expect(await rowOf(ou.id)).not.toBeNull();
    expect(await eventsOf(ou.id)).toHaveLength(0);
  });
});
