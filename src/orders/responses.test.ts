import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf } from "../../test/support/graphql-failures.ts";
import { responseProblems, WALDUR, waldurOperation } from "../../test/waldur/py-client-models.ts";
import { toHex } from "../platform/ids.ts";

/** Order responses parse with py-client's models (OrderDetails, OrderInfoResponse, Status) and carry what our data gives. */

let t: TestApp;
let planUuid: string;
beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  const w = t.world;
  await db.project.update({ where: { id: w.project.id }, data: { description: "Genome runs" } });
  await db.offering.update({ where: { id: w.offering.id }, data: { description: "The cluster" } });
  await db.serviceProvider.update({ where: { customerId: w.provider.id }, data: { description: "HPC centre" } });
  for (const [persona, first, last] of [["projectMember", "Mia", "Member"], ["projectAdmin", "Ada", "Admin"], ["providerOwner", "Otto", "Owner"]] as const) {
    await db.user.update({ where: { id: w.users[persona].id }, data: { firstName: first, lastName: last, email: `${persona}@example.org` } });
  }
  const plan = await db.offeringPlan.create({ data: { offeringId: w.offering.id, name: "Standard", unitPrice: "12.34", unit: "month" } });
  planUuid = toHex(plan.id);
});
afterAll(() => t.close());

const problems = (method: string, path: string, body: unknown) => {
  const operation = waldurOperation(method, path);
  if (!operation?.response?.model) throw new Error(`py-client has no response model for ${method} ${path}`);
  return responseProblems(operation, body);
};
const act = (uuid: string, action: string, token: string, body: unknown = {}) =>
  t.http("POST", `/api/marketplace-orders/${uuid}/${action}/`, { token, body });

describe("order responses as py-client reads them", () => {
  it("create, approvals, set_backend_id, retrieve and list parse without a problem, every field filled", async () => {
    const w = t.world;
    const created = await t.http("POST", "/api/marketplace-orders/", {
      token: w.tokens.projectMember,
      body: {
        offering: `${t.baseUrl}/api/marketplace-public-offerings/${w.offering.uuid}/`,
        project: `${t.baseUrl}/api/projects/${w.project.uuid}/`,
        plan: `${t.baseUrl}/api/marketplace-plans/${planUuid}/`,
        attributes: { name: "genome-alloc" },
        limits: { cpu: 10 },
        request_comment: "for the genome runs",
        start_date: "2020-01-01",
      },
    });
    expect(created.status).toBe(201);
    expect(problems("POST", "/api/marketplace-orders/", created.body)).toEqual([]);
    const uuid: string = created.body.uuid;
    const path = "/api/marketplace-orders/:uuid";

    const byConsumer = await act(uuid, "approve_by_consumer", w.tokens.projectAdmin);
    expect(byConsumer.body).toEqual({ detail: "Order is pending provider approval." });
    expect(problems("POST", `${path}/approve_by_consumer/`, byConsumer.body)).toEqual([]);
    const byProvider = await act(uuid, "approve_by_provider", w.tokens.providerOwner, { attributes: { queue: "long" } });
    expect(byProvider.body).toEqual({ detail: "Order has been approved and is being processed." });
    expect(problems("POST", `${path}/approve_by_provider/`, byProvider.body)).toEqual([]);
    const backendId = await act(uuid, "set_backend_id", w.tokens.providerOwner, { backend_id: "job-42" });
    expect(backendId.body).toEqual({ status: "Order backend_id has been changed." });
    expect(problems("POST", `${path}/set_backend_id/`, backendId.body)).toEqual([]);

    const retrieved = await t.http("GET", `/api/marketplace-orders/${uuid}/`, { token: w.tokens.staff });
    expect(problems("GET", `${path}/`, retrieved.body)).toEqual([]);
    const db = t.app.deps.db;
    const [project, offering] = await Promise.all([
      db.project.findUniqueOrThrow({ where: { id: w.project.id }, include: { customer: true } }),
      db.offering.findUniqueOrThrow({ where: { id: w.offering.id }, include: { customer: true } }),
    ]);
    expect(retrieved.body).toMatchObject({
      state: "executing",
      type: "Create",
      attributes: { name: "genome-alloc", queue: "long" },
      backend_id: "job-42",
      start_date: "2020-01-01",
      offering_description: "The cluster",
      offering_plugin_options: { service_provider_can_create_offering_user: true },
      provider_slug: offering.customer.slug,
      provider_description: "HPC centre",
      project_slug: project.slug,
      project_description: "Genome runs",
      customer_slug: project.customer.slug,
      resource_name: "genome-alloc",
      plan_uuid: planUuid,
      plan_name: "Standard",
      plan_unit: "month",
      new_plan_uuid: planUuid,
      new_plan_name: "Standard",
      cost: "12.3400000000",
      new_cost_estimate: "12.3400000000",
      created_by_username: "projectMember",
      created_by_full_name: "Mia Member",
      created_by_email: "projectMember@example.org",
      consumer_reviewed_by: "projectAdmin",
      consumer_reviewed_by_username: "projectAdmin",
      consumer_reviewed_by_full_name: "Ada Admin",
      provider_reviewed_by: "providerOwner",
      provider_reviewed_by_username: "providerOwner",
      provider_reviewed_by_full_name: "Otto Owner",
      can_terminate: false,
      auto_approved: false,
    });
    expect([project.slug, offering.slug, offering.customer.slug, project.customer.slug]).not.toContain("");
    // `project`, the project's url, is ours beside Waldur's project_uuid.
    const known = WALDUR.models.OrderDetails;
    expect(Object.keys(retrieved.body).filter((key) => !(key in known.required) && !(key in known.optional))).toEqual(["project"]);

    const listed = await t.http("GET", "/api/marketplace-orders/", { token: w.tokens.projectMember });
    expect(listed.body.map((o: { uuid: string }) => o.uuid)).toEqual([uuid]);
    expect(problems("GET", "/api/marketplace-orders/", listed.body)).toEqual([]);
  });

  it("can_terminate: the order could be canceled now (Basic and Support offerings, cancelable states)", async () => {
    const db = t.app.deps.db;
    const basic = await db.offering.create({ data: { customerId: t.world.provider.id, name: "Desk", type: "Marketplace.Basic", state: "ACTIVE" } });
    const created = await t.http("POST", "/api/marketplace-orders/", {
      token: t.world.tokens.projectMember,
      body: { offering: basic.id, project: t.world.project.uuid, attributes: { name: "desk" } },
    });
    expect(created.body).toMatchObject({ state: "pending-consumer", can_terminate: true, cost: null, plan_unit: null });
    await act(created.body.uuid, "cancel", t.world.tokens.projectAdmin);
    const canceled = await t.http("GET", `/api/marketplace-orders/${created.body.uuid}/`, { token: t.world.tokens.staff });
    expect(canceled.body).toMatchObject({ state: "canceled", can_terminate: false });
  });

  it("Restore orders are Waldur's own: creating one is refused over GraphQL as over REST", async () => {
    const input = { offeringUuid: t.world.offering.uuid, projectUuid: t.world.project.uuid, type: "RESTORE" };
    const res = await t.gql(`mutation($input: CreateOrderInput!) { createOrder(input: $input) { ... on Order { uuid } ${failuresOf("createOrder")} } }`, { input }, t.world.tokens.projectAdmin);
    expect(res.data.createOrder).toMatchObject({ __typename: "ValidationError", fields: [{ path: "type", message: '"Restore" is not a valid choice.' }] });
    const rest = await t.http("POST", "/api/marketplace-orders/", {
      token: t.world.tokens.projectAdmin,
      body: { offering: t.world.offering.uuid, project: t.world.project.uuid, type: "Restore" },
    });
    expect(rest.body).toEqual({ type: ['"Restore" is not a valid choice.'] });
  });
});
