import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf } from "../../test/support/graphql-failures.ts";
import { PERSONAS, type Persona } from "../../test/support/world.ts";
import { makeResource, orderIn, userWithRoles } from "../../test/support/order-fixtures.ts";

/**
 * Placing an order needs CREATE_ORDER on the project or its customer: staff, the consumer's owners, and the project's
 * admins, managers and members. Read-only roles (global support, the consumer's CUSTOMER.SUPPORT) get 403 and
 * nothing is written: no order, no resource, no offering user, no event.
 */

let t: TestApp;
let consumerRoles: Record<"consumerOwner" | "consumerSupport" | "consumerManager", { token: string }>;
beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const on = (role: string) => userWithRoles(db, [[role, "CUSTOMER", t.world.consumer.id]]);
  consumerRoles = {
    consumerOwner: await on("CUSTOMER.OWNER"),
    consumerSupport: await on("CUSTOMER.SUPPORT"),
    consumerManager: await on("CUSTOMER.MANAGER"),
  };
  // A project member without an offering user yet: a Create order would give the provider their account.
  await t.world.offeringUser("OK");
  await db.offeringUser.deleteMany({});
});
afterAll(() => t.close());

type Caller = Persona | keyof typeof consumerRoles;
const tokenOf = (caller: Caller) => (caller in consumerRoles ? consumerRoles[caller as keyof typeof consumerRoles].token : t.world.tokens[caller as Persona]);

/** 400: the project is not one the caller may see, as Waldur answers for an unknown hyperlink. */
const CREATES: Record<Caller, number> = {
  staff: 201,
  support: 403,
  providerOwner: 400,
  providerManager: 400,
  providerSupport: 400,
  offeringManager: 400,
  projectAdmin: 201,
  projectManager: 201,
  projectMember: 201,
  unrelated: 400,
  consumerOwner: 201,
  consumerSupport: 403,
  consumerManager: 403,
};

const written = async () => {
  const db = t.app.deps.db;
  const [orders, resources, offeringUsers, events] = await Promise.all([db.order.count(), db.resource.count(), db.offeringUser.count(), db.event.count()]);
  return { orders, resources, offeringUsers, events };
};

const body = (extra: Record<string, unknown> = {}) => ({ offering: t.world.offering.uuid, project: t.world.project.uuid, attributes: { name: "x" }, ...extra });

describe("who may create an order", () => {
  for (const caller of [...PERSONAS, ...(["consumerOwner", "consumerSupport", "consumerManager"] as const)]) {
    const status = CREATES[caller];
    it(`${caller} → ${status}`, async () => {
      const before = await written();
      const res = await t.http("POST", "/api/marketplace-orders/", { token: tokenOf(caller), body: body() });
      expect(res.status).toBe(status);
      if (status === 201) return;
      expect(await written()).toEqual(before);
      if (status === 403) expect(res.body).toEqual({ detail: "You do not have permission to perform this action." });
    });
  }

  it("Terminate and Update orders need the same permission", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    for (const type of ["Terminate", "Update"]) {
      for (const caller of ["support", "consumerSupport"] as const) {
        const before = await written();
        const res = await t.http("POST", "/api/marketplace-orders/", { token: tokenOf(caller), body: body({ type, resource: resource.uuid }) });
        expect(res.status).toBe(403);
        expect(await written()).toEqual(before);
      }
    }
    expect(await t.app.deps.db.resource.findUniqueOrThrow({ where: { id: resource.id } })).toMatchObject({ state: "OK" });
  });

  it("over GraphQL the refusal is FORBIDDEN", async () => {
    const before = await written();
    const result = await t.gql(
      `mutation($o: ID!, $p: ID!) { createOrder(input: { offeringUuid: $o, projectUuid: $p }) { ... on Order { uuid } ${failuresOf("createOrder")} } }`,
      { o: t.world.offering.uuid, p: t.world.project.uuid },
      t.world.tokens.support,
    );
    expect(result.data.createOrder).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    expect(await written()).toEqual(before);
  });

  it("the consumer's CUSTOMER.SUPPORT cannot act on the consumer's orders either", async () => {
    const order = await orderIn(t.app.deps.db, t.world, "PENDING_CONSUMER");
    for (const action of ["approve_by_consumer", "reject_by_consumer", "cancel"]) {
      const res = await t.http("POST", `/api/marketplace-orders/${order.uuid}/${action}/`, { token: consumerRoles.consumerSupport.token, body: {} });
      expect([403, 404]).toContain(res.status);
    }
    expect((await t.http("DELETE", `/api/marketplace-orders/${order.uuid}/`, { token: consumerRoles.consumerSupport.token })).status).toBeGreaterThanOrEqual(403);
    expect(await t.app.deps.db.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ state: "PENDING_CONSUMER" });
  });
});
