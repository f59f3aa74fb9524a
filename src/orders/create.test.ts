import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { makeOffering, makeResource, orderIn, userWithRoles } from "../../test/support/order-fixtures.ts";
import { OFFERING_TYPES } from "./transitions.ts";

let t: TestApp;
let autoApproving: { id: string; uuid: string };
beforeAll(async () => {
  t = await startTestApp();
  autoApproving = await makeOffering(t.app.deps.db, t.world, OFFERING_TYPES.SLURM, { auto_approve_remote_orders: true });
});
afterAll(() => t.close());

const offeringUrl = (uuid: string) => `http://testserver/api/marketplace-provider-offerings/${uuid}/`;
const projectUrl = () => `${t.baseUrl}/api/projects/${t.world.project.uuid}/`;
const create = (token: string, body: Record<string, unknown> = {}) =>
  t.http("POST", "/api/marketplace-orders/", {
    token,
    body: { offering: offeringUrl(t.world.offering.uuid), project: projectUrl(), attributes: { name: "alloc" }, ...body },
  });
const resourceOf = async (order: { resource_uuid: string }) =>
  (await t.http("GET", `/api/marketplace-provider-resources/${order.resource_uuid}/`, { token: t.world.tokens.staff })).body;
const act = (uuid: string, action: string, token: string, body: unknown = {}) =>
  t.http("POST", `/api/marketplace-orders/${uuid}/${action}/`, { token, body });

describe("create and approval skipping", () => {
  it("a project member's order waits for the consumer; its resource is created in Creating", async () => {
    const res = await create(t.world.tokens.projectMember, { limits: { cpu: 100 }, request_comment: "please" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: "Create",
      state: "pending-consumer",
      offering_uuid: t.world.offering.uuid,
      offering_type: "Marketplace.Slurm",
      project_uuid: t.world.project.uuid,
      customer_uuid: t.world.consumer.uuid,
      provider_uuid: t.world.provider.uuid,
      resource_name: "alloc",
      limits: { cpu: 100 },
      request_comment: "please",
      created_by_username: "projectMember",
      consumer_reviewed_by: null,
    });
    expect(res.body.url).toBe(`${t.baseUrl}/api/marketplace-orders/${res.body.uuid}/`);
    expect(await resourceOf(res.body)).toMatchObject({ name: "alloc", state: "Creating", limits: { cpu: 100 } });
    const resourceId = (await t.app.deps.db.order.findFirstOrThrow({ where: { createdById: t.world.users.projectMember.id } })).resourceId!;
    const events = await t.app.deps.db.event.findMany({ where: { scopes: { some: { scopeType: "RESOURCE", scopeId: resourceId } } } });
    expect(events.map((e) => e.eventType).sort()).toEqual(["marketplace_order_created", "marketplace_resource_create_requested"]);
  });

  it("a project admin's order skips consumer approval and waits for the provider", async () => {
    const res = await create(t.world.tokens.projectAdmin);
    expect(res.body).toMatchObject({ state: "pending-provider", consumer_reviewed_by: "projectAdmin" });
  });

  it("auto_approve_remote_orders skips provider approval", async () => {
    const res = await create(t.world.tokens.projectAdmin, { offering: offeringUrl(autoApproving.uuid) });
    expect(res.body.state).toBe("executing");
  });

  it("a creator who also manages the offering skips both approvals", async () => {
    const both = await userWithRoles(t.app.deps.db, [
      ["PROJECT.MANAGER", "PROJECT", t.world.project.id],
      ["OFFERING.MANAGER", "OFFERING", t.world.offering.id],
    ]);
    expect((await create(both.token)).body.state).toBe("executing");
  });

  it("staff orders go straight to executing", async () => {
    expect((await create(t.world.tokens.staff)).body.state).toBe("executing");
  });

  it("a future start date makes an approved order wait in pending-start-date", async () => {
    const res = await create(t.world.tokens.projectAdmin, { offering: offeringUrl(autoApproving.uuid), start_date: "2999-01-01" });
    expect(res.body).toMatchObject({ state: "pending-start-date", start_date: "2999-01-01" });
  });

  it("consumer approval of a member's order on an auto-approving offering goes to executing", async () => {
    const order = (await create(t.world.tokens.projectMember, { offering: offeringUrl(autoApproving.uuid) })).body;
    const res = await act(order.uuid, "approve_by_consumer", t.world.tokens.projectManager);
    expect(res.body).toEqual({ detail: "Order has been approved and is being processed." });
  });
});

describe("validation", () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ["missing offering and project", { offering: undefined, project: undefined }, { offering: ["This field is required."], project: ["This field is required."] }],
    ["unknown offering", { offering: offeringUrl("0".repeat(32)) }, { offering: ["Invalid hyperlink - Object does not exist."] }],
    ["bad type", { type: "Restore" }, { type: ['"Restore" is not a valid choice.'] }],
    ["attributes not an object", { attributes: [1] }, { attributes: ["Expected a dictionary of items."] }],
    ["negative limit", { limits: { cpu: -1 } }, { limits: ["Limit of cpu must be a non-negative number."] }],
    ["update without resource", { type: "Update" }, { resource: ["This field is required."] }],
  ];
  for (const [name, body, errors] of cases) {
    it(`${name} → 400`, async () => {
      const before = await t.app.deps.db.order.count();
      const res = await create(t.world.tokens.projectAdmin, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await t.app.deps.db.order.count()).toBe(before);
    });
  }

  it("a project the caller has no role on does not exist for them", async () => {
    const res = await create(t.world.tokens.providerOwner);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ project: ["Invalid hyperlink - Object does not exist."] });
  });

  it("Update and Terminate orders need an OK or Erred resource without a pending order", async () => {
    const creating = await makeResource(t.app.deps.db, t.world, "CREATING");
    const resourceUrl = (uuid: string) => `${t.baseUrl}/api/marketplace-resources/${uuid}/`;
    const bad = await create(t.world.tokens.projectAdmin, { type: "Terminate", resource: resourceUrl(creating.uuid) });
    expect(bad.body).toEqual({ resource: ["Resource is not in valid state."] });
    const ok = await makeResource(t.app.deps.db, t.world, "OK");
    expect((await create(t.world.tokens.projectAdmin, { type: "Update", resource: resourceUrl(ok.uuid), limits: { cpu: 5 } })).status).toBe(201);
    const twice = await create(t.world.tokens.projectAdmin, { type: "Terminate", resource: resourceUrl(ok.uuid) });
    expect(twice.body).toEqual({ resource: ["Pending order for resource already exists."] });
  });
});

describe("validation over GraphQL names CreateOrderInput's fields", () => {
  const CREATE = `mutation($input: CreateOrderInput!) { createOrder(input: $input) { ... on Order { uuid } ${failuresOf("createOrder")} } }`;
  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ["unknown offering", { offeringUuid: "0".repeat(32) }, { offeringUuid: ["Object does not exist."] }],
    ["update without resource", { type: "UPDATE" }, { resourceUuid: ["This field is required."] }],
    ["unknown resource", { type: "TERMINATE", resourceUuid: "0".repeat(32) }, { resourceUuid: ["Object does not exist."] }],
    ["a request comment too long", { requestComment: "x".repeat(256) }, { requestComment: ["Ensure this field has no more than 255 characters."] }],
  ];
  for (const [name, input, fields] of cases) {
    it(`${name} → VALIDATION naming ${Object.keys(fields).join(", ")}`, async () => {
      const base = { offeringUuid: t.world.offering.uuid, projectUuid: t.world.project.uuid, attributes: { name: "gql" } };
      const result = await t.gql(CREATE, { input: { ...base, ...input } }, t.world.tokens.projectAdmin);
      expect(result.data.createOrder).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
      expect(fieldsOf(result.data.createOrder)).toEqual(fields);
    });
  }
});

describe("the resource follows its order", () => {
  it("Create: pending-consumer → pending-provider → executing → done makes the resource OK", async () => {
    const order = (await create(t.world.tokens.projectMember)).body;
    expect((await act(order.uuid, "approve_by_consumer", t.world.tokens.projectAdmin)).status).toBe(200);
    expect((await act(order.uuid, "approve_by_provider", t.world.tokens.offeringManager)).status).toBe(200);
    expect((await resourceOf(order)).state).toBe("Creating");
    expect((await act(order.uuid, "set_state_done", t.world.tokens.offeringManager)).status).toBe(200);
    expect((await resourceOf(order)).state).toBe("OK");
    const done = await t.http("GET", `/api/marketplace-orders/${order.uuid}/`, { token: t.world.tokens.projectMember });
    expect(done.body.state).toBe("done");
    expect(done.body.completed_at).toMatch(/Z$/);
  });

  it("Create erred makes the resource Erred; rejected makes it Terminated", async () => {
    const erred = (await create(t.world.tokens.staff)).body;
    await act(erred.uuid, "set_state_erred", t.world.tokens.providerOwner, { error_message: "no" });
    expect((await resourceOf(erred)).state).toBe("Erred");
    const rejected = (await create(t.world.tokens.projectAdmin)).body;
    expect((await act(rejected.uuid, "reject_by_provider", t.world.tokens.providerOwner)).status).toBe(200);
    expect((await resourceOf(rejected)).state).toBe("Terminated");
  });

  it("Terminate: executing makes the resource Terminating, done Terminated", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const order = (await create(t.world.tokens.projectAdmin, { type: "Terminate", resource: resource.uuid })).body;
    expect(order).toMatchObject({ type: "Terminate", state: "pending-provider", resource_uuid: resource.uuid });
    await act(order.uuid, "approve_by_provider", t.world.tokens.providerOwner);
    expect((await resourceOf(order)).state).toBe("Terminating");
    await act(order.uuid, "set_state_done", t.world.tokens.providerOwner);
    expect((await resourceOf(order)).state).toBe("Terminated");
  });

  it("Update: done applies the order's limits and returns the resource to OK", async () => {
    const resource = await makeResource(t.app.deps.db, t.world, "OK");
    const order = (await create(t.world.tokens.staff, { type: "Update", resource: resource.uuid, limits: { cpu: 42 } })).body;
    expect((await resourceOf(order)).state).toBe("Updating");
    await act(order.uuid, "set_state_done", t.world.tokens.providerOwner);
    expect(await resourceOf(order)).toMatchObject({ state: "OK", limits: { cpu: 42 } });
  });

  it("cancel of a Basic Create order terminates its resource", async () => {
    const basic = await makeOffering(t.app.deps.db, t.world, OFFERING_TYPES.BASIC);
    const order = await orderIn(t.app.deps.db, t.world, "EXECUTING", { offeringId: basic.id });
    expect((await act(order.uuid, "cancel", t.world.tokens.projectAdmin)).status).toBe(202);
    expect((await t.app.deps.db.resource.findUniqueOrThrow({ where: { id: order.resource.id } })).state).toBe("TERMINATED");
  });
});

describe("terms of service", () => {
  it("without enforcement the terms need not be accepted", async () => {
    await t.app.deps.db.offeringTermsOfService.create({ data: { offeringId: autoApproving.id, version: "1", isActive: true } });
    expect((await create(t.world.tokens.projectAdmin, { offering: offeringUrl(autoApproving.uuid) })).status).toBe(201);
  });
});

describe("terms of service with enforcement on", () => {
  let e: TestApp;
  beforeAll(async () => {
    e = await startTestApp({ enforceUserConsent: true });
    await e.app.deps.db.offeringTermsOfService.create({ data: { offeringId: e.world.offering.id, version: "2", isActive: true } });
  });
  afterAll(() => e.close());

  const order = (body: Record<string, unknown>) =>
    e.http("POST", "/api/marketplace-orders/", {
      token: e.world.tokens.projectAdmin,
      body: { offering: e.world.offering.uuid, project: e.world.project.uuid, ...body },
    });

  it("an order that does not accept the active terms is 400", async () => {
    for (const body of [{}, { accepting_terms_of_service: false }]) {
      const res = await order(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ accepting_terms_of_service: ["Terms of service for offering have not been accepted."] });
    }
    expect(await e.app.deps.db.order.count()).toBe(0);
  });

  it("accepting them creates the order and records the consent", async () => {
    const res = await order({ accepting_terms_of_service: true });
    expect(res.status).toBe(201);
    const consent = await e.app.deps.db.userOfferingConsent.findFirstOrThrow({ where: { userId: e.world.users.projectAdmin.id } });
    expect(consent).toMatchObject({ offeringId: e.world.offering.id, version: "2", revocationDate: null });
    expect((await order({ accepting_terms_of_service: true })).status).toBe(201);
  });
});
