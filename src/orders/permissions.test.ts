import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderState } from "../generated/prisma/client.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { PERSONAS, type Persona } from "../../test/support/world.ts";
import { makeOffering, orderIn } from "../../test/support/order-fixtures.ts";
import { OFFERING_TYPES } from "./transitions.ts";

let t: TestApp;
let basic: { id: string };
beforeAll(async () => {
  t = await startTestApp();
  basic = await makeOffering(t.app.deps.db, t.world, OFFERING_TYPES.BASIC);
});
afterAll(() => t.close());

const SEES: Record<Persona, boolean> = {
  staff: true,
  support: true,
  providerOwner: true,
  providerManager: true,
  providerSupport: false,
  offeringManager: true,
  projectAdmin: true,
  projectManager: true,
  projectMember: true,
  unrelated: false,
};

describe("visibility: consumer side and provider side; others 404", () => {
  for (const persona of PERSONAS) {
    it(`${persona} ${SEES[persona] ? "sees" : "does not see"} the order`, async () => {
      const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
      const token = t.world.tokens[persona];
      const one = await t.http("GET", `/api/marketplace-orders/${order.uuid}/`, { token });
      expect(one.status).toBe(SEES[persona] ? 200 : 404);
      const list = await t.http("GET", `/api/marketplace-orders/?resource_uuid=${order.resource.uuid}`, { token });
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(SEES[persona] ? 1 : 0);
    });
  }
});

const CONSUMER = { projectAdmin: 200, projectManager: 200, projectMember: 403, providerOwner: 403, offeringManager: 403, support: 403, unrelated: 404, staff: 200 };
const PROVIDER = { providerOwner: 200, providerManager: 200, offeringManager: 200, projectAdmin: 403, projectMember: 403, providerSupport: 404, support: 403, unrelated: 404, staff: 200 };

/** Expected status per persona; a success also names the status Waldur answers with (the Basic offering is not the offering manager's). */
const ACTIONS: Array<{ action: string; from: OrderState; offering?: "basic"; method?: string; expect: Partial<Record<Persona, number>> }> = [
  { action: "approve_by_consumer", from: "PENDING_CONSUMER", expect: CONSUMER },
  { action: "reject_by_consumer", from: "PENDING_CONSUMER", expect: CONSUMER },
  { action: "cancel", from: "EXECUTING", offering: "basic", expect: { ...CONSUMER, projectAdmin: 202, projectManager: 202, staff: 202, offeringManager: 404 } },
  { action: "approve_by_provider", from: "PENDING_PROVIDER", expect: PROVIDER },
  { action: "reject_by_provider", from: "PENDING_PROVIDER", expect: PROVIDER },
  { action: "set_state_executing", from: "PENDING_PROVIDER", expect: PROVIDER },
  { action: "set_state_done", from: "EXECUTING", expect: PROVIDER },
  { action: "set_state_erred", from: "EXECUTING", expect: PROVIDER },
  { action: "DELETE", from: "PENDING_CONSUMER", method: "DELETE", expect: { ...CONSUMER, projectAdmin: 204, projectManager: 204, staff: 204 } },
];

describe("who may do what", () => {
  for (const { action, from, offering, method, expect: statuses } of ACTIONS) {
    for (const [persona, status] of Object.entries(statuses) as Array<[Persona, number]>) {
      it(`${action} by ${persona} → ${status}`, async () => {
        const order = await orderIn(t.app.deps.db, t.world, from, { offeringId: offering === "basic" ? basic.id : undefined });
        const path = method ? `/api/marketplace-orders/${order.uuid}/` : `/api/marketplace-orders/${order.uuid}/${action}/`;
        const res = await t.http(method ?? "POST", path, { token: t.world.tokens[persona], body: method ? undefined : {} });
        expect(res.status).toBe(status);
        const after = await t.app.deps.db.order.findUnique({ where: { id: order.id } });
        if (status >= 400) expect(after?.state).toBe(from);
      });
    }
  }

  it("anonymous callers get 401", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    expect((await t.http("POST", `/api/marketplace-orders/${order.uuid}/approve_by_provider/`, { body: {} })).status).toBe(401);
    expect((await t.http("GET", "/api/marketplace-orders/")).status).toBe(401);
  });
});
