import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { makeOffering, userWithRoles } from "../../test/support/order-fixtures.ts";
import { OFFERING_TYPES } from "../orders/transitions.ts";
import { parseUuid, toHex } from "../platform/ids.ts";
import { ed25519Key } from "../../test/support/ssh-test-keys.ts";

/**
 * A project's members reach a provider only through an allocation: a resource whose Create order the consumer side has
 * approved. Before that, and after a rejection or cancellation, the provider finds no offering user, no event of one
 * and no team.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A customer's project with an admin and a member (the r2 and p_mem); the member orders the offering. */
async function projectWithPendingOrder(offeringType: string) {
  const db = t.app.deps.db;
  const offering = await makeOffering(db, t.world, offeringType, { service_provider_can_create_offering_user: true });
  const customer = await db.customer.create({ data: { name: `Tenant of ${offering.uuid}` } });
  const project = await db.project.create({ data: { customerId: customer.id, name: "Private members" } });
  const admin = await userWithRoles(db, [["PROJECT.ADMIN", "PROJECT", project.id]]);
  const member = await userWithRoles(db, [["PROJECT.MEMBER", "PROJECT", project.id]]);
  await db.user.update({ where: { id: admin.id }, data: { firstName: "Rita", lastName: "Admin", email: "r2@tenant.example" } });
  const created = await t.http("POST", "/api/marketplace-orders/", {
    token: member.token,
    body: {
      offering: `${t.baseUrl}/api/marketplace-provider-offerings/${offering.uuid}/`,
      project: `${t.baseUrl}/api/projects/${toHex(project.id)}/`,
      attributes: { name: "not yet approved" },
    },
  });
  expect(created.status).toBe(201);
  expect(created.body.state).toBe("pending-consumer");
  const key = await t.http("POST", "/api/keys/", { token: admin.token, body: { name: "laptop", public_key: ed25519Key() } });
  expect(key.status).toBe(201);
  return { offering, admin, member, order: created.body as { uuid: string; resource_uuid: string } };
}

type Setup = Awaited<ReturnType<typeof projectWithPendingOrder>>;

/** What the provider's owner learns of the project's members, over REST and GraphQL. */
async function seenByProvider({ offering, order, admin }: Setup) {
  const token = t.world.tokens.providerOwner;
  const rest = await t.http("GET", `/api/marketplace-offering-users/?offering_uuid=${offering.uuid}`, { token });
  expect(rest.status).toBe(200);
  const gql = await t.gql<{ offeringUsers: { nodes: Array<{ user: { username: string } | null }> } }>(
    `query($o: [ID!]) { offeringUsers(filter: { offeringUuid: $o }) { nodes { user { username } } } }`,
    { o: [offering.uuid] },
    token,
  );
  expect(gql.errors).toBeUndefined();
  const team = await t.http("GET", `/api/marketplace-provider-resources/${order.resource_uuid}/team/`, { token });
  expect(team.status).toBe(200);
  const events = await t.http("GET", `/api/events/?event_type=marketplace_offering_user_created&page_size=300`, { token });
  expect(events.status).toBe(200);
  const keys = await t.http("GET", `/api/marketplace-service-providers/${t.world.serviceProvider.uuid}/keys/?page_size=300`, { token });
  expect(keys.status).toBe(200);
  return {
    rest: (rest.body as Array<{ user_username: string }>).map((row) => row.user_username).sort(),
    graphql: gql.data!.offeringUsers.nodes.map((node) => node.user?.username).sort(),
    team: (team.body as Array<{ username: string }>).map((row) => row.username).sort(),
    keysOfAdmin: (keys.body as Array<{ user_uuid: string }>).filter((k) => k.user_uuid === toHex(admin.id)).length,
    offeringUserEvents: (events.body as Array<{ context: { offering_uuid?: string } }>).filter((e) => e.context.offering_uuid === offering.uuid).length,
  };
}

const orderAction = (setup: Setup, action: string, token: string) =>
  t.http("POST", `/api/marketplace-orders/${setup.order.uuid}/${action}/`, { token, body: {} });

const nothing = { rest: [], graphql: [], team: [], keysOfAdmin: 0, offeringUserEvents: 0 };

describe("an order nobody on the consumer side approved", () => {
  it("shows the provider none of the project's members", async () => {
    const setup = await projectWithPendingOrder(OFFERING_TYPES.SLURM);
    expect(await seenByProvider(setup)).toEqual(nothing);
    expect(await t.app.deps.db.offeringUser.count({ where: { offeringId: setup.offering.id } })).toBe(0);
  });

  it("approved by the project admin: every member gets an offering user the provider (and its agent) finds", async () => {
    const setup = await projectWithPendingOrder(OFFERING_TYPES.SLURM);
    const approved = await orderAction(setup, "approve_by_consumer", setup.admin.token);
    expect(approved.status).toBe(200);
    const members = [setup.admin.username, setup.member.username].sort();
    expect(await seenByProvider(setup)).toEqual({ rest: members, graphql: members, team: members, keysOfAdmin: 1, offeringUserEvents: 2 });
  });

  it("rejected by the project admin: no trace of the members with the provider", async () => {
    const setup = await projectWithPendingOrder(OFFERING_TYPES.SLURM);
    expect((await orderAction(setup, "reject_by_consumer", setup.admin.token)).status).toBe(200);
    expect(await seenByProvider(setup)).toEqual(nothing);
  });

  it("cancelled by the project admin: no trace of the members with the provider", async () => {
    const setup = await projectWithPendingOrder(OFFERING_TYPES.BASIC);
    expect((await orderAction(setup, "cancel", setup.admin.token)).status).toBe(202);
    expect(await seenByProvider(setup)).toEqual(nothing);
  });

  it("a member added while the order waits is not reported either; after approval, they are", async () => {
    const setup = await projectWithPendingOrder(OFFERING_TYPES.SLURM);
    const db = t.app.deps.db;
    const project = await db.resource.findUniqueOrThrow({ where: { id: parseUuid(setup.order.resource_uuid)! }, select: { projectId: true } });
    const late = await db.user.create({ data: { username: `late-${setup.offering.uuid.slice(0, 6)}` } });
    const added = await t.http("POST", `/api/projects/${toHex(project.projectId)}/add_user/`, {
      token: t.world.tokens.staff,
      body: { user: toHex(late.id), role: "PROJECT.MEMBER" },
    });
    expect(added.status).toBe(201);
    expect(await seenByProvider(setup)).toEqual(nothing);
    expect((await orderAction(setup, "approve_by_consumer", setup.admin.token)).status).toBe(200);
    expect((await seenByProvider(setup)).rest).toEqual([setup.admin.username, late.username, setup.member.username].sort());
  });

  it("withdrawn (deleted) while waiting: its resource never brings the members, even when another member joins", async () => {
    const setup = await projectWithPendingOrder(OFFERING_TYPES.SLURM);
    expect((await t.http("DELETE", `/api/marketplace-orders/${setup.order.uuid}/`, { token: setup.admin.token })).status).toBe(204);
    const { projectId } = await t.app.deps.db.resource.findUniqueOrThrow({ where: { id: parseUuid(setup.order.resource_uuid)! } });
    const late = await t.app.deps.db.user.create({ data: { username: `withdrawn-${setup.offering.uuid.slice(0, 6)}` } });
    const body = { user: toHex(late.id), role: "PROJECT.MEMBER" };
    expect((await t.http("POST", `/api/projects/${toHex(projectId)}/add_user/`, { token: t.world.tokens.staff, body })).status).toBe(201);
    expect(await seenByProvider(setup)).toEqual(nothing);
  });
});

describe("after the consumer's approval", () => {
  it("the provider's own rejection keeps what it learned: the team of the terminated resource", async () => {
    const setup = await projectWithPendingOrder(OFFERING_TYPES.SLURM);
    expect((await orderAction(setup, "approve_by_consumer", setup.admin.token)).status).toBe(200);
    expect((await orderAction(setup, "reject_by_provider", t.world.tokens.providerOwner)).status).toBe(200);
    const members = [setup.admin.username, setup.member.username].sort();
    expect(await seenByProvider(setup)).toMatchObject({ rest: members, team: members, offeringUserEvents: 2 });
  });
});
