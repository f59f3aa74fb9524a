import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { waldurOperation } from "../../test/waldur/py-client-models.ts";
import { toHex } from "../platform/ids.ts";
import type { Persona } from "../../test/support/world.ts";

/** GET /api/marketplace-plans/<uuid>/: the site agent reads a plan's quotas when it processes an Update order. */

let t: TestApp;
let standard: string;
let free: string;
let draftPlan: string;
beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const plan = (name: string, unitPrice: string, unit = "month") =>
    db.offeringPlan.create({ data: { offeringId: t.world.offering.id, name, unitPrice, unit } }).then((p) => toHex(p.id));
  standard = await plan("Standard", "12.5");
  free = await plan("Free", "0", "fortnight");
  const draft = await db.offering.create({
    data: { customerId: t.world.provider.id, name: "Unreleased", type: "Marketplace.Basic", state: "DRAFT", plans: { create: [{ name: "Beta" }] } },
    include: { plans: true },
  });
  draftPlan = toHex(draft.plans[0].id);
});
afterAll(() => t.close());

const BASE = "/api/marketplace-plans";
const get = (uuid: string, persona?: Persona) => t.http("GET", `${BASE}/${uuid}/`, { token: persona && t.world.tokens[persona] });

it("is checked against py-client's ProviderPlanDetails", () => {
  expect(waldurOperation("GET", `${BASE}/:uuid/`)?.response).toEqual({ model: "ProviderPlanDetails", list: false });
});

describe("retrieve", () => {
  it("staff: 200 with Waldur's fields", async () => {
    const res = await get(standard, "staff");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: `${t.baseUrl}${BASE}/${standard}/`,
      uuid: standard,
      name: "Standard",
      is_active: true,
      init_price: 0,
      switch_price: 0,
      organization_groups: [],
      components: [],
      offering: `${t.baseUrl}/api/marketplace-provider-offerings/${t.world.offering.uuid}/`,
      prices: {},
      future_prices: {},
      quotas: {},
      resources_count: 0,
      plan_type: "fixed",
      minimal_price: "12.5000000000",
      archived: false,
      unit_price: "12.5000000000",
      unit: "month",
    });
  });

  it("a free plan has no plan type, and a unit outside Waldur's billing units is left out", async () => {
    const res = await get(free, "staff");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ plan_type: "", minimal_price: "0.0000000000", unit_price: "0.0000000000" });
    expect(res.body).not.toHaveProperty("unit");
  });

  it("counts the plan's resources", async () => {
    const db = t.app.deps.db;
    await db.resource.create({
      data: { name: "vm", offeringId: t.world.offering.id, projectId: t.world.project.id, planId: (await db.offeringPlan.findFirstOrThrow({ where: { name: "Standard" } })).id },
    });
    expect((await get(standard, "staff")).body.resources_count).toBe(1);
  });

  it("dashed and upper-case uuids address the same plan", async () => {
    const dashed = (await t.app.deps.db.offeringPlan.findFirstOrThrow({ where: { name: "Standard" } })).id;
    for (const form of [dashed, standard.toUpperCase()]) expect((await get(form, "staff")).body.uuid).toBe(standard);
  });
});

describe("visibility: the plans of the offerings the caller may see", () => {
  it("an active offering's plan is seen by every signed-in user", async () => {
    for (const persona of ["unrelated", "projectMember", "offeringManager", "providerOwner"] as const) {
      expect((await get(standard, persona)).status, persona).toBe(200);
    }
  });

  it("a draft offering's plan: the provider and staff see it, others get 404", async () => {
    for (const persona of ["staff", "support", "providerOwner", "providerManager"] as const) {
      expect((await get(draftPlan, persona)).status, persona).toBe(200);
    }
    for (const persona of ["unrelated", "projectMember", "offeringManager"] as const) {
      const res = await get(draftPlan, persona);
      expect(res.status, persona).toBe(404);
      expect(res.body).toEqual({ detail: "Not found." });
    }
  });

  it("anonymous: 401", async () => {
    const res = await get(standard);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: "Authentication credentials were not provided." });
  });

  it("an unknown or malformed uuid: 404", async () => {
    for (const uuid of [randomUUID(), toHex(randomUUID()), "not-a-uuid"]) {
      const res = await get(uuid, "staff");
      expect(res.status, uuid).toBe(404);
      expect(res.body).toEqual({ detail: "Not found." });
    }
  });

  it("GraphQL: offeringPlan(uuid) is null where the REST path is 404", async () => {
    const query = `query($uuid: ID!) { offeringPlan(uuid: $uuid) { uuid quotas planType } }`;
    expect((await t.gql(query, { uuid: standard }, t.world.tokens.unrelated)).data).toEqual({ offeringPlan: { uuid: standard, quotas: {}, planType: "fixed" } });
    expect((await t.gql(query, { uuid: draftPlan }, t.world.tokens.unrelated)).data).toEqual({ offeringPlan: null });
  });
});
