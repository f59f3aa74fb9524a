import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderState } from "../generated/prisma/client.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { makeOffering, orderIn } from "../../test/support/order-fixtures.ts";
import { ORDER_STATE_LABELS } from "../resources/order-states.ts";
import { OFFERING_TYPES, ORDER_ACTIONS, ORDER_TRANSITIONS } from "./transitions.ts";

const STATES = Object.keys(ORDER_STATE_LABELS) as OrderState[];

let t: TestApp;
let basicOffering: { id: string };
beforeAll(async () => {
  t = await startTestApp();
  basicOffering = await makeOffering(t.app.deps.db, t.world, OFFERING_TYPES.BASIC);
});
afterAll(() => t.close());

/** approve_by_consumer of a project member's order on an offering without auto-approval still needs the provider. */
const EXPECTED_TARGET: Partial<Record<string, OrderState>> = { approve_by_consumer: "PENDING_PROVIDER", approve_by_provider: "EXECUTING" };
const EXPECTED_STATUS: Partial<Record<string, number>> = { cancel: 202 };

describe("order actions over REST: every action from every state", () => {
  for (const action of ORDER_ACTIONS) {
    const rule = ORDER_TRANSITIONS[action];
    const effect = rule.effect as { side: string; offeringTypes?: readonly string[] };
    const offeringType = effect.offeringTypes?.[0] ?? OFFERING_TYPES.SLURM;
    for (const from of STATES) {
      const valid = (rule.from as readonly string[]).includes(from);
      const target = EXPECTED_TARGET[action] ?? rule.to;
      it(`${action} from ${from} ${valid ? `→ ${target}` : "is 409"}`, async () => {
        const db = t.app.deps.db;
        const offeringId = offeringType === OFFERING_TYPES.BASIC ? basicOffering.id : t.world.offering.id;
        const order = await orderIn(db, t.world, from, { offeringId });
        const token = effect.side === "consumer" ? t.world.tokens.projectAdmin : t.world.tokens.providerManager;
        const res = await t.http("POST", `/api/marketplace-orders/${order.uuid}/${action}/`, {
          token,
          body: { error_message: "boom", error_traceback: "trace" },
        });
        const after = await db.order.findUniqueOrThrow({ where: { id: order.id } });
        const events = await db.event.count({ where: { scopes: { some: { scopeType: "ORDER", scopeId: order.id } } } });
        if (valid) {
          expect(res.status).toBe(EXPECTED_STATUS[action] ?? 200);
          expect(after.state).toBe(target);
          expect(events).toBe(1);
        } else {
          expect(res.status).toBe(409);
          expect(res.body).toEqual({ detail: `Valid states for operation: ${rule.from.map((s) => ORDER_STATE_LABELS[s]).join(", ")}.` });
          expect(after.state).toBe(from);
          expect(events).toBe(0);
        }
      });
    }
  }
});

describe("offering types", () => {
  const unsupported: Array<[string, OrderState, string]> = [
    ["cancel", "PENDING_CONSUMER", OFFERING_TYPES.SLURM],
    ["set_state_executing", "PENDING_PROVIDER", OFFERING_TYPES.BASIC],
    ["set_state_erred", "EXECUTING", OFFERING_TYPES.BASIC],
  ];
  for (const [action, from, type] of unsupported) {
    it(`${action} on a ${type} order is 405 and changes nothing`, async () => {
      const offeringId = type === OFFERING_TYPES.BASIC ? basicOffering.id : t.world.offering.id;
      const order = await orderIn(t.app.deps.db, t.world, from, { offeringId });
      const res = await t.http("POST", `/api/marketplace-orders/${order.uuid}/${action}/`, { token: t.world.tokens.staff, body: {} });
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ detail: `The order's offering with ${type} type does not support this action` });
      expect((await t.app.deps.db.order.findUniqueOrThrow({ where: { id: order.id } })).state).toBe(from);
    });
  }
});

describe("responses and stored effects", () => {
  it("approve_by_provider answers {detail}, records the reviewer and merges attributes", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    const res = await t.http("POST", `/api/marketplace-orders/${order.uuid}/approve_by_provider/`, {
      token: t.world.tokens.providerOwner,
      body: { attributes: { partition: "gpu" } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: "Order has been approved and is being processed." });
    const got = await t.http("GET", `/api/marketplace-orders/${order.uuid}/`, { token: t.world.tokens.providerOwner });
    expect(got.body).toMatchObject({ state: "executing", provider_reviewed_by: "providerOwner", attributes: { partition: "gpu" } });
    expect(got.body.provider_reviewed_at).toMatch(/Z$/);
  });

  it("approve_by_consumer answers where the order went", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_CONSUMER");
    const res = await t.http("POST", `/api/marketplace-orders/${order.uuid}/approve_by_consumer/`, { token: t.world.tokens.projectAdmin });
    expect(res.body).toEqual({ detail: "Order is pending provider approval." });
    const got = await t.http("GET", `/api/marketplace-orders/${order.uuid}/`, { token: t.world.tokens.projectAdmin });
    expect(got.body).toMatchObject({ state: "pending-provider", consumer_reviewed_by: "projectAdmin" });
  });

  it("rejections and set_state_* answer 200 with no body; set_state_erred stores the error and completes", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "EXECUTING");
    const res = await t.http("POST", `/api/marketplace-orders/${order.uuid}/set_state_erred/`, {
      token: t.world.tokens.providerOwner,
      body: { error_message: "sacctmgr missing", error_traceback: "Traceback…" },
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    const got = await t.http("GET", `/api/marketplace-orders/${order.uuid}/`, { token: t.world.tokens.providerOwner });
    expect(got.body).toMatchObject({ state: "erred", error_message: "sacctmgr missing", error_traceback: "Traceback…" });
    expect(got.body.completed_at).toMatch(/Z$/);
  });

  it("dashed uuids work in action paths", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "EXECUTING");
    const res = await t.http("POST", `/api/marketplace-orders/${order.id}/set_state_done/`, { token: t.world.tokens.providerOwner });
    expect(res.status).toBe(200);
  });

  it("set_backend_id answers {status} and says when nothing changed", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "EXECUTING");
    const path = `/api/marketplace-orders/${order.uuid}/set_backend_id/`;
    const token = t.world.tokens.providerOwner;
    expect((await t.http("POST", path, { token, body: { backend_id: "job-1" } })).body).toEqual({ status: "Order backend_id has been changed." });
    expect((await t.http("POST", path, { token, body: { backend_id: "job-1" } })).body).toEqual({ status: "Order backend_id is not changed." });
    expect((await t.http("POST", path, { token, body: {} })).body).toEqual({ backend_id: ["This field is required."] });
    expect((await t.app.deps.db.order.findUniqueOrThrow({ where: { id: order.id } })).backendId).toBe("job-1");
  });
});

describe("DELETE and unlink", () => {
  for (const from of STATES) {
    const deletable = from === "PENDING_CONSUMER" || from === "PENDING_PROVIDER";
    it(`DELETE from ${from} ${deletable ? "→ 204" : "is 409"}`, async () => {
      const order = await orderIn(t.app.deps.db, t.world, from);
      const res = await t.http("DELETE", `/api/marketplace-orders/${order.uuid}/`, { token: t.world.tokens.projectAdmin });
      const exists = await t.app.deps.db.order.count({ where: { id: order.id } });
      if (deletable) {
        expect(res.status).toBe(204);
        expect(exists).toBe(0);
      } else {
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ detail: "Valid states for operation: pending-consumer, pending-provider." });
        expect(exists).toBe(1);
      }
    });
  }

  it("unlink is staff only and works in any state", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "DONE");
    const path = `/api/marketplace-orders/${order.uuid}/unlink/`;
    expect((await t.http("POST", path, { token: t.world.tokens.providerOwner })).status).toBe(403);
    expect((await t.http("POST", path, { token: t.world.tokens.staff })).status).toBe(204);
    expect(await t.app.deps.db.order.count({ where: { id: order.id } })).toBe(0);
    const events = await t.app.deps.db.event.findMany({ where: { eventType: "marketplace_order_unlinked" } });
    expect(events).toHaveLength(1);
  });
});

describe("concurrency", () => {
  it("of two simultaneous approvals one wins, the other is 409, and one event is written", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER");
    const approve = () => t.http("POST", `/api/marketplace-orders/${order.uuid}/approve_by_provider/`, { token: t.world.tokens.providerOwner, body: {} });
    const statuses = (await Promise.all([approve(), approve(), approve()])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    expect(await t.app.deps.db.event.count({ where: { eventType: "marketplace_order_approved", scopes: { some: { scopeId: order.id } } } })).toBe(1);
  });
});
