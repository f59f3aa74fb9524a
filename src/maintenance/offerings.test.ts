import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Persona } from "../../test/support/world.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { maintenanceUrl, offeringUrl, otherProvider, seedMaintenance } from "../../test/support/maintenance-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const LINK_KEYS = ["url", "uuid", "maintenance", "offering", "offering_name", "impact_level", "impact_level_display", "impact_description"].sort();
const BASE = "/api/maintenance-announcement-offerings/";

const link = (maintenance: { uuid: string }, extra: Record<string, unknown> = {}) => ({
  maintenance: maintenanceUrl(t, maintenance.uuid),
  offering: offeringUrl(t),
  impact_level: 3,
  impact_description: "Jobs will be paused",
  ...extra,
});

describe("affected offerings", () => {
  it("create (201) answers Waldur's fields and nests the link in the announcement", async () => {
    const m = await seedMaintenance(t);
    const res = await t.http("POST", BASE, { token: t.world.tokens.providerOwner, body: link(m) });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(LINK_KEYS);
    expect(res.body).toMatchObject({
      url: `${t.baseUrl}${BASE}${res.body.uuid}/`,
      maintenance: maintenanceUrl(t, m.uuid),
      offering: offeringUrl(t),
      offering_name: "HPC",
      impact_level: 3,
      impact_level_display: "Partial outage",
      impact_description: "Jobs will be paused",
    });
    const parent = await t.http("GET", `/api/maintenance-announcements/${m.uuid}/`, { token: t.world.tokens.providerOwner });
    expect(parent.body.affected_offerings).toEqual([res.body]);
  });

  for (const persona of ["staff", "providerManager"] as Persona[]) {
    it(`${persona} creates (201)`, async () => {
      const m = await seedMaintenance(t);
      expect((await t.http("POST", BASE, { token: t.world.tokens[persona], body: link(m) })).status).toBe(201);
    });
  }

  for (const persona of ["support", "providerSupport", "offeringManager", "projectAdmin", "projectManager", "unrelated"] as Persona[]) {
    it(`${persona} gets 400 (the maintenance does not exist for them)`, async () => {
      const m = await seedMaintenance(t);
      const res = await t.http("POST", BASE, { token: t.world.tokens[persona], body: link(m) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ maintenance: ["Invalid hyperlink - Object does not exist."] });
    });
  }

  it("anonymous gets 401", async () => {
    const m = await seedMaintenance(t);
    expect((await t.http("POST", BASE, { body: link(m) })).status).toBe(401);
  });

  it("validation: another provider's offering, a duplicate, an unknown impact level, missing fields", async () => {
    const m = await seedMaintenance(t);
    const token = t.world.tokens.providerOwner;
    const other = await otherProvider(t);
    const foreign = await t.http("POST", BASE, { token, body: link(m, { offering: offeringUrl(t, other.offering.uuid) }) });
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body)).toEqual(["offering"]);
    expect((await t.http("POST", BASE, { token, body: link(m) })).status).toBe(201);
    const duplicate = await t.http("POST", BASE, { token, body: link(m) });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ non_field_errors: ["The fields maintenance, offering must make a unique set."] });
    const level = await t.http("POST", BASE, { token, body: link(m, { impact_level: 7 }) });
    expect(level.body).toEqual({ impact_level: ['"7" is not a valid choice.'] });
    const missing = await t.http("POST", BASE, { token, body: {} });
    expect(missing.body).toEqual({ maintenance: ["This field is required."], offering: ["This field is required."] });
  });

  it("list and retrieve follow the announcement's visibility; filters by maintenance_uuid", async () => {
    const m = await seedMaintenance(t);
    const created = await t.http("POST", BASE, { token: t.world.tokens.staff, body: link(m) });
    const list = await t.http("GET", `${BASE}?maintenance_uuid=${m.uuid}`, { token: t.world.tokens.providerManager });
    expect(list.body.map((l: { uuid: string }) => l.uuid)).toEqual([created.body.uuid]);
    expect((await t.http("GET", `${BASE}?maintenance_uuid=bad`, { token: t.world.tokens.staff })).status).toBe(400);
    expect((await t.http("GET", BASE, { token: t.world.tokens.projectAdmin })).body).toEqual([]);
    expect((await t.http("GET", `${BASE}${created.body.uuid}/`, { token: t.world.tokens.projectAdmin })).status).toBe(404);
    expect((await t.http("GET", `${BASE}${created.body.uuid}/`, { token: t.world.tokens.providerOwner })).status).toBe(200);
  });

  it("filters by offering_uuid and orders by created", async () => {
    const other = await otherProvider(t);
    const mine = await t.http("POST", BASE, { token: t.world.tokens.staff, body: link(await seedMaintenance(t)) });
    const theirs = await t.http("POST", BASE, {
      token: t.world.tokens.staff,
      body: link(await seedMaintenance(t, "DRAFT", { serviceProviderId: other.serviceProvider.id }), { offering: offeringUrl(t, other.offering.uuid) }),
    });
    const uuids = async (query: string) => (await t.http("GET", `${BASE}?${query}`, { token: t.world.tokens.staff })).body.map((l: { uuid: string }) => l.uuid);
    expect(await uuids(`offering_uuid=${other.offering.uuid}`)).toEqual([theirs.body.uuid]);
    expect(await uuids(`offering_uuid=${t.world.offering.uuid}&page_size=300`)).toContain(mine.body.uuid);
    expect(await uuids(`offering_uuid=${t.world.offering.uuid}&page_size=300`)).not.toContain(theirs.body.uuid);
    const newestFirst = await uuids("page_size=300");
    expect(newestFirst.slice(0, 2)).toEqual([theirs.body.uuid, mine.body.uuid]);
    expect((await uuids("o=created&page_size=300")).slice(-2)).toEqual([mine.body.uuid, theirs.body.uuid]);
  });

  it("PATCH changes impact; outsiders 404, support 403; DELETE 204; events are written", async () => {
    const m = await seedMaintenance(t);
    const created = await t.http("POST", BASE, { token: t.world.tokens.providerOwner, body: link(m) });
    const path = `${BASE}${created.body.uuid}/`;
    expect((await t.http("PATCH", path, { token: t.world.tokens.unrelated, body: { impact_level: 4 } })).status).toBe(404);
    expect((await t.http("PATCH", path, { token: t.world.tokens.support, body: { impact_level: 4 } })).status).toBe(403);
    const patched = await t.http("PATCH", path, { token: t.world.tokens.providerManager, body: { impact_level: 4, impact_description: "Down" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ impact_level: 4, impact_level_display: "Full outage", impact_description: "Down" });
    expect((await t.http("PUT", path, { token: t.world.tokens.providerManager, body: { impact_level: 2 } })).status).toBe(400);
    expect((await t.http("DELETE", path, { token: t.world.tokens.projectAdmin })).status).toBe(404);
    expect((await t.http("DELETE", path, { token: t.world.tokens.providerOwner })).status).toBe(204);
    const events = await t.app.deps.db.event.findMany({
      where: { scopes: { some: { scopeType: "MAINTENANCE", scopeId: m.id } } },
      orderBy: { id: "asc" },
    });
    expect(events.map((e) => e.eventType)).toEqual([
      "maintenance_announcement_offering_created",
      "maintenance_announcement_offering_updated",
      "maintenance_announcement_offering_deleted",
    ]);
  });

  it("deleting the announcement deletes its links", async () => {
    const m = await seedMaintenance(t);
    const created = await t.http("POST", BASE, { token: t.world.tokens.providerOwner, body: link(m) });
    await t.http("DELETE", `/api/maintenance-announcements/${m.uuid}/`, { token: t.world.tokens.providerOwner });
    expect((await t.http("GET", `${BASE}${created.body.uuid}/`, { token: t.world.tokens.staff })).status).toBe(404);
  });
});
