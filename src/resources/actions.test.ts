import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { PERSONAS, type Persona } from "../../test/support/world.ts";
import type { ResourceState } from "../generated/prisma/client.ts";
import { makeOffering, makeResource } from "../../test/support/order-fixtures.ts";

/** The site agent's state and membership reports on a resource, as Waldur's py-client calls them. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BASE = "/api/marketplace-provider-resources";
const post = (path: string, body?: unknown, persona: Persona = "offeringManager") => t.http("POST", path, { token: t.world.tokens[persona], body });
const stored = (id: string) => t.app.deps.db.resource.findUniqueOrThrow({ where: { id } });
const eventsOf = async (uuid: string, type: string) =>
  (await t.http("GET", `/api/events/?scope=${t.baseUrl}${BASE}/${uuid}/&event_type=${type}`, { token: t.world.tokens.staff })).body;

/** Who may report a resource's state: the provider's owners and managers, offering managers, staff. */
const MAY_SET_STATE: Record<Persona, number> = {
  staff: 200, support: 403, providerOwner: 200, providerManager: 200, providerSupport: 403, offeringManager: 200,
  projectAdmin: 404, projectManager: 404, projectMember: 404, unrelated: 404,
};

describe("set_as_erred/", () => {
  it.each(PERSONAS)("%s", async (persona) => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const response = await post(`${BASE}/${resource.uuid}/set_as_erred/`, { error_message: "boom" }, persona);
    expect(response.status, response.text).toBe(MAY_SET_STATE[persona]);
    expect((await stored(resource.id)).state).toBe(MAY_SET_STATE[persona] === 200 ? "ERRED" : "OK");
  });

  it("stores the message, answers with no body and records the traceback in the event", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const response = await post(`${BASE}/${resource.uuid}/set_as_erred/`, { error_message: "sacctmgr failed", error_traceback: "Traceback: line 1" });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toBeUndefined();
    const after = await t.http("GET", `${BASE}/${resource.uuid}/`, { token: t.world.tokens.offeringManager });
    expect(after.body).toMatchObject({ state: "Erred", error_message: "sacctmgr failed" });
    const events = await eventsOf(resource.uuid, "marketplace_resource_erred_on_backend");
    expect(events).toHaveLength(1);
    expect(events[0].context).toMatchObject({ old_state: "OK", new_state: "Erred", error_message: "sacctmgr failed", error_traceback: "Traceback: line 1" });
  });

  it.each<ResourceState>(["CREATING", "UPDATING", "TERMINATING", "ERRED", "TERMINATED"])("is allowed from %s", async (state) => {
    const resource = await makeResource(t.app.deps.db, t.world, state);
    expect((await post(`${BASE}/${resource.uuid}/set_as_erred/`, {})).status).toBe(200);
    expect(await stored(resource.id)).toMatchObject({ state: "ERRED", errorMessage: "" });
  });

  it("rejects a message that is not text", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    expect((await post(`${BASE}/${resource.uuid}/set_as_erred/`, { error_message: 5 })).body).toEqual({ error_message: ["Not a valid string."] });
  });
});

describe("set_as_ok/", () => {
  it.each(PERSONAS)("%s", async (persona) => {
    const resource = await makeResource(t.app.deps.db, t.world, "ERRED");
    const response = await post(`${BASE}/${resource.uuid}/set_as_ok/`, undefined, persona);
    expect(response.status, response.text).toBe(MAY_SET_STATE[persona]);
    expect((await stored(resource.id)).state).toBe(MAY_SET_STATE[persona] === 200 ? "OK" : "ERRED");
  });

  it("clears the error, answers with no body and records the change", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    await post(`${BASE}/${resource.uuid}/set_as_erred/`, { error_message: "boom" });
    const response = await post(`${BASE}/${resource.uuid}/set_as_ok/`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toBeUndefined();
    expect(await stored(resource.id)).toMatchObject({ state: "OK", errorMessage: "" });
    const events = await eventsOf(resource.uuid, "marketplace_resource_updated");
    expect(events[0].context).toMatchObject({ old_state: "Erred", new_state: "OK" });
  });

  it.each<[ResourceState, number]>([["CREATING", 200], ["UPDATING", 200], ["TERMINATING", 200], ["OK", 409], ["TERMINATED", 409]])(
    "from %s → %i",
    async (state, status) => {
      const resource = await makeResource(t.app.deps.db, t.world, state);
      const response = await post(`${BASE}/${resource.uuid}/set_as_ok/`);
      expect(response.status, response.text).toBe(status);
      if (status === 409) expect(response.body).toEqual({ detail: "Valid states for operation: Creating, Updating, Terminating, Erred." });
      expect((await stored(resource.id)).state).toBe(status === 200 ? "OK" : state);
    },
  );

  it("runs the same through GraphQL", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "ERRED");
    const result = await t.gql<any>(
      `mutation($id: ID!) { setResourceAsOk(input: { id: $id }) { ... on ResourceStateResult { state resource { state errorMessage } } } }`,
      { id: globalId("Resource", resource.uuid) },
      t.world.tokens.providerOwner,
    );
    expect(result.data.setResourceAsOk).toEqual({ state: "OK", resource: { state: "OK", errorMessage: "" } });
  });
});

describe("set_membership_sync_statuses/", () => {
  const report = (uuid: string, statuses: unknown, persona: Persona = "providerOwner") =>
    post(`${BASE}/${uuid}/set_membership_sync_statuses/`, { statuses }, persona);
  const entry = (extra: Record<string, unknown> = {}) => ({ username: "projectAdmin", scope_type: "resource", role_name: "admin", state: "synced", ...extra });
  const optedIn = async () => {
    const offering = await makeOffering(t.app.deps.db, t.world, "Marketplace.Slurm", { enable_membership_sync_status: true });
    return makeResource(t.app.deps.db, t.world, "OK", { offeringId: offering.id });
  };

  it("is 409 unless the offering opts in", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const response = await report(resource.uuid, [entry()]);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ detail: "Membership sync status is not enabled for this offering." });
  });

  it("stores the resolvable entries, echoes the rest and keeps one event per changed report", async () => {
    const resource = await optedIn();
    const statuses = [
      entry(),
      entry({ username: undefined, user_uuid: t.world.users.projectMember.uuid, state: "missing_in_idp", message: "not in LDAP" }),
      entry({ username: "no-such-user" }),
      entry({ username: "projectManager", scope_type: "resource_project", resource_project_uuid: t.world.project.uuid }),
    ];
    const first = await report(resource.uuid, statuses);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ stored: 2, skipped: ["no-such-user", "projectManager"] });
    expect((await report(resource.uuid, statuses)).body).toEqual({ stored: 2, skipped: ["no-such-user", "projectManager"] });
    const events = await eventsOf(resource.uuid, "marketplace_resource_membership_sync_reported");
    expect(events).toHaveLength(1);
    expect(events[0].context.statuses).toEqual([
      { user_uuid: t.world.users.projectAdmin.uuid, username: "projectAdmin", role_name: "admin", state: "synced", message: "" },
      { user_uuid: t.world.users.projectMember.uuid, username: "projectMember", role_name: "admin", state: "missing_in_idp", message: "not in LDAP" },
    ]);
    await report(resource.uuid, [entry({ state: "error" })]);
    expect(await eventsOf(resource.uuid, "marketplace_resource_membership_sync_reported")).toHaveLength(2);
  });

  it("checks who reports and what", async () => {
    const resource = await optedIn();
    expect((await report(resource.uuid, [entry()], "providerSupport")).status).toBe(403);
    expect((await report(resource.uuid, [entry()], "projectManager")).status).toBe(404);
    expect((await post(`${BASE}/${resource.uuid}/set_membership_sync_statuses/`, {}, "providerOwner")).body).toEqual({ statuses: ["This field is required."] });
    const bad = await report(resource.uuid, [entry({ state: "done", scope_type: "project" })]);
    expect(bad.status).toBe(400);
    expect(bad.body.statuses).toEqual(['statuses[0].scope_type: "project" is not a valid choice.', 'statuses[0].state: "done" is not a valid choice.']);
  });
});

describe("details/ and refresh_last_sync/", () => {
  it("details/ of a resource without a backend object is an empty 404", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const response = await t.http("GET", `${BASE}/${resource.uuid}/details/`, { token: t.world.tokens.providerOwner });
    expect(response.status).toBe(404);
    expect(response.text).toBe("");
  });

  it("refresh_last_sync/ answers with no body", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const response = await post(`${BASE}/${resource.uuid}/refresh_last_sync/`);
    expect(response.status).toBe(200);
    expect(response.text).toBe("");
  });
});

describe("set_end_date/", () => {
  it("sets and clears the end date, answers with no body and records each change", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const path = `${BASE}/${resource.uuid}/set_end_date/`;
    const set = await post(path, { end_date: "2030-12-31" });
    expect([set.status, set.text]).toEqual([200, ""]);
    const after = await t.http("GET", `${BASE}/${resource.uuid}/`, { token: t.world.tokens.offeringManager });
    expect(after.body).toMatchObject({ end_date: "2030-12-31", end_date_updated_at: expect.any(String) });
    expect((await post(path, { end_date: "2030-12-31" })).status).toBe(200);
    expect((await post(path, { end_date: null })).status).toBe(200);
    expect((await stored(resource.id)).endDate).toBeNull();
    const events = await eventsOf(resource.uuid, "marketplace_resource_update_end_date_succeeded");
    expect(events.map((e: { context: { new_end_date: string | null } }) => e.context.new_end_date)).toEqual([null, "2030-12-31"]);
    expect((await post(path, { end_date: "31.12.2030" })).body).toEqual({ end_date: ["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."] });
    expect((await post(path, { end_date: "2030-12-31" }, "providerSupport")).status).toBe(403);
  });
});

describe("team/", () => {
  const team = async (uuid: string, query = "", persona: Persona = "providerOwner") =>
    (await t.http("GET", `${BASE}/${uuid}/team/${query}`, { token: t.world.tokens[persona] })).body.map((m: { username: string }) => m.username);

  it("lists each user once", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    await t.app.deps.db.roleGrant.create({
      data: { userId: t.world.users.projectAdmin.id, role: "PROJECT.MEMBER", scopeType: "PROJECT", scopeId: t.world.project.id },
    });
    expect(await team(resource.uuid)).toEqual(["projectAdmin", "projectManager", "projectMember"]);
  });

  it("has_consent splits the team by consent to the offering's active terms", async () => {
    const offering = await makeOffering(t.app.deps.db, t.world, "Marketplace.Slurm");
    const resource = await makeResource(t.app.deps.db, t.world, "OK", { offeringId: offering.id });
    expect(await team(resource.uuid, "?has_consent=true")).toEqual(["projectAdmin", "projectManager", "projectMember"]);
    expect(await team(resource.uuid, "?has_consent=false")).toEqual([]);
    await t.app.deps.db.offeringTermsOfService.create({ data: { offeringId: offering.id, version: "1", isActive: true } });
    await t.app.deps.db.userOfferingConsent.create({ data: { userId: t.world.users.projectManager.id, offeringId: offering.id, version: "1" } });
    expect(await team(resource.uuid, "?has_consent=true")).toEqual(["projectManager"]);
    expect(await team(resource.uuid, "?has_consent=false")).toEqual(["projectAdmin", "projectMember"]);
    expect(await team(resource.uuid)).toEqual(["projectAdmin", "projectManager", "projectMember"]);
  });

  it("shows staff the whole team when consent is enforced", async () => {
    const enforced = await startTestApp({ enforceUserConsent: true });
    try {
      const db = enforced.app.deps.db;
      const resource = await makeResource(db, enforced.world, "OK");
      await db.offeringTermsOfService.create({ data: { offeringId: enforced.world.offering.id, version: "1", isActive: true } });
      const get = async (persona: Persona) =>
        (await enforced.http("GET", `${BASE}/${resource.uuid}/team/`, { token: enforced.world.tokens[persona] })).body.length;
      expect(await get("providerOwner")).toBe(0);
      expect(await get("staff")).toBe(3);
    } finally {
      await enforced.close();
    }
  });
});
