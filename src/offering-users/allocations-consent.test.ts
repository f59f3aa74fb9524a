import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { makeOffering } from "../../test/support/order-fixtures.ts";
import { OFFERING_TYPES } from "../orders/transitions.ts";
import { toHex } from "../platform/ids.ts";

const ref = (id: string) => ({ id, uuid: toHex(id) });

describe("with consent enforcement", () => {
  let e: TestApp;
  beforeAll(async () => {
    e = await startTestApp({ enforceUserConsent: true });
  });
  afterAll(() => e.close());

  it("only members with a current consent to the active terms get an offering user", async () => {
    const edb = e.app.deps.db;
    const o = await makeOffering(edb, e.world, OFFERING_TYPES.SLURM, { service_provider_can_create_offering_user: true });
    await edb.offeringTermsOfService.create({ data: { offeringId: o.id, version: "1", isActive: true, activatedAt: new Date() } });
    const p = await edb.project.create({ data: { customerId: e.world.consumer.id, name: "Consent" } });
    await edb.resource.create({ data: { offeringId: o.id, projectId: p.id, state: "OK" } });
    const [consenting, refusing] = await Promise.all(
      ["consenting", "refusing"].map(async (name) => ref((await edb.user.create({ data: { username: name } })).id)),
    );
    await edb.userOfferingConsent.create({ data: { userId: consenting.id, offeringId: o.id, version: "1" } });
    for (const member of [consenting, refusing]) {
      const res = await e.http("POST", `/api/projects/${toHex(p.id)}/add_user/`, { token: e.world.tokens.staff, body: { user: member.uuid, role: "PROJECT.MEMBER" } });
      expect(res.status).toBe(201);
    }
    const states = await edb.offeringUser.findMany({ where: { offeringId: o.id }, select: { userId: true, state: true } });
    expect(states).toEqual([{ userId: consenting.id, state: "CREATION_REQUESTED" }]);
  });

  it("the creator of an order that accepts the terms gets an offering user from that order", async () => {
    const edb = e.app.deps.db;
    const o = await makeOffering(edb, e.world, OFFERING_TYPES.SLURM, { service_provider_can_create_offering_user: true });
    await edb.offeringTermsOfService.create({ data: { offeringId: o.id, version: "1", isActive: true, activatedAt: new Date() } });
    const res = await e.http("POST", "/api/marketplace-orders/", {
      token: e.world.tokens.projectAdmin,
      body: {
        offering: `${e.baseUrl}/api/marketplace-provider-offerings/${toHex(o.id)}/`,
        project: `${e.baseUrl}/api/projects/${e.world.project.uuid}/`,
        attributes: { name: "with terms" },
        accepting_terms_of_service: true,
      },
    });
    expect(res.status).toBe(201);
    const created = await edb.offeringUser.findMany({ where: { offeringId: o.id }, select: { userId: true, state: true } });
    expect(created).toContainEqual({ userId: e.world.users.projectAdmin.id, state: "CREATION_REQUESTED" });
    expect(await edb.userOfferingConsent.count({ where: { offeringId: o.id, userId: e.world.users.projectAdmin.id, revocationDate: null } })).toBe(1);
  });
});
