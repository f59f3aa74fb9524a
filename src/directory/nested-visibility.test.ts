import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import type { Persona } from "../../test/support/world.ts";
import { orderIn } from "../../test/support/order-fixtures.ts";

/**
 * A customer, project or user reached by nesting shows no more than its REST endpoint would show the viewer, and the
 * fields the record it was reached from shows of it over REST (an offering user its user's email, an order its project's
 * description and creator's email): what Waldur's flattened fields (`user_email`, …) showed, now as the object's own.
 */
let t: TestApp;
let orderUuid: string;
beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.deps.db;
  await db.customer.update({ where: { id: t.world.provider.id }, data: { email: "ops@provider.example", abbreviation: "PRV" } });
  await db.customer.update({ where: { id: t.world.consumer.id }, data: { email: "boss@consumer.example", abbreviation: "CON" } });
  await db.project.update({ where: { id: t.world.project.id }, data: { description: "secret plans" } });
  orderUuid = (await orderIn(db, t.world, "EXECUTING")).uuid;
  await t.world.offeringUser("OK");
});
afterAll(() => t.close());

const ask = async (persona: Persona, query: string, variables: Record<string, unknown> = {}) => {
  const res = await t.gql(query, variables, t.world.tokens[persona]);
  expect(res.errors).toBeUndefined();
  return res.data;
};

const PROVIDER = { name: "Provider Org", email: "ops@provider.example", abbreviation: "PRV" };
const PROVIDER_PUBLIC = { name: "Provider Org", email: null, abbreviation: null, created: null };
const CONSUMER_PUBLIC = { name: "Consumer Org", email: null, abbreviation: null, created: null };
const CUSTOMER = "customer { uuid name email abbreviation created }";

describe("an offering's customer and the service providers' customers", () => {
  const OFFERING = `query($uuid: ID!) { offering(uuid: $uuid) { name ${CUSTOMER} } }`;
  const PROVIDERS = `{ serviceProviders { nodes { ${CUSTOMER} } } offerings { nodes { ${CUSTOMER} } } }`;

  for (const persona of ["unrelated", "projectMember", "projectAdmin"] as const) {
    it(`${persona} sees the public name, not email, abbreviation or created; a service provider shows its abbreviation`, async () => {
      const one = await ask(persona, OFFERING, { uuid: t.world.offering.uuid });
      expect(one.offering.customer).toEqual({ uuid: t.world.provider.uuid, ...PROVIDER_PUBLIC });
      const lists = await ask(persona, PROVIDERS);
      for (const node of lists.offerings.nodes) expect(node.customer).toEqual({ uuid: t.world.provider.uuid, ...PROVIDER_PUBLIC });
      for (const node of lists.serviceProviders.nodes) expect(node.customer).toEqual({ uuid: t.world.provider.uuid, ...PROVIDER_PUBLIC, abbreviation: "PRV" });
    });
  }

  it("... whose REST endpoint answers 404 to that user", async () => {
    const res = await t.http("GET", `/api/customers/${t.world.provider.uuid}/`, { token: t.world.tokens.unrelated });
    expect(res.status).toBe(404);
  });

  for (const persona of ["staff", "support", "providerOwner", "providerSupport", "offeringManager"] as const) {
    it(`${persona}, who may read the customer, sees every field`, async () => {
      const one = await ask(persona, OFFERING, { uuid: t.world.offering.uuid });
      expect(one.offering.customer).toMatchObject(PROVIDER);
      expect(one.offering.customer.created).toEqual(expect.any(String));
      const lists = await ask(persona, PROVIDERS);
      expect(lists.serviceProviders.nodes[0].customer).toMatchObject(PROVIDER);
    });
  }
});

describe("an order's and a resource's project and customer", () => {
  const ORDER = `query($uuid: ID!) { order(uuid: $uuid) {
    project { name description created customer { name email abbreviation created } } } }`;
  const RESOURCES = `{ resources { nodes { project { name description customer { name email } } } } }`;

  it("the provider sees the consumer's names, and the project's description as the order and resource show it", async () => {
    const { order } = await ask("providerOwner", ORDER, { uuid: orderUuid });
    expect(order.project).toEqual({ name: "Project", description: "secret plans", created: null, customer: CONSUMER_PUBLIC });
    const { resources } = await ask("providerOwner", RESOURCES);
    expect(resources.nodes.length).toBeGreaterThan(0);
    for (const node of resources.nodes) expect(node.project).toEqual({ name: "Project", description: "secret plans", customer: { name: "Consumer Org", email: null } });
  });

  it("the provider sees the order's creator's email and full name, as the order shows them, and nothing else of them", async () => {
    const query = `query($uuid: ID!) { order(uuid: $uuid) { createdBy { username email fullName firstName isStaff } } }`;
    const { order } = await ask("providerOwner", query, { uuid: orderUuid });
    expect(order.createdBy).toEqual({ username: "projectMember", email: "projectMember@example.org", fullName: expect.any(String), firstName: null, isStaff: null });
  });

  it("a member of the project sees its description and its customer", async () => {
    const { order } = await ask("projectMember", ORDER, { uuid: orderUuid });
    expect(order.project).toMatchObject({ description: "secret plans", customer: { email: "boss@consumer.example", abbreviation: "CON" } });
  });

  it("staff see everything", async () => {
    const { order } = await ask("staff", ORDER, { uuid: orderUuid });
    expect(order.project).toMatchObject({ description: "secret plans", customer: { email: "boss@consumer.example" } });
  });
});

describe("an offering user's user", () => {
  const USERS = `{ offeringUsers { nodes { user { uuid username email firstName lastName fullName isStaff isActive created } } } }`;

  it("the provider sees the username, names and email (as the offering user shows them), not the rest of the profile", async () => {
    const { offeringUsers } = await ask("providerOwner", USERS);
    expect(offeringUsers.nodes.length).toBeGreaterThan(0);
    for (const node of offeringUsers.nodes) {
      expect(node.user).toEqual({
        uuid: expect.any(String), username: expect.stringMatching(/^member/),
        email: expect.any(String), firstName: "Member", lastName: expect.any(String), fullName: expect.stringMatching(/^Member/),
        isStaff: null, isActive: null, created: null,
      });
    }
  });

  it("staff see the profile", async () => {
    const { offeringUsers } = await ask("staff", USERS);
    expect(offeringUsers.nodes[0].user).toMatchObject({ firstName: "Member", isStaff: false, isActive: true });
  });

  it("everyone sees their own profile through me", async () => {
    const { me } = await ask("unrelated", "{ me { email firstName isStaff } }");
    expect(me).toEqual({ email: "unrelated@example.org", firstName: "unrelated", isStaff: false });
  });
});

describe("REST is unchanged", () => {
  it("GET /api/customers/<uuid>/ for an owner, /api/projects/<uuid>/ for a member, /api/users/ for a colleague", async () => {
    const customer = await t.http("GET", `/api/customers/${t.world.provider.uuid}/`, { token: t.world.tokens.providerOwner });
    expect(customer.body).toMatchObject({ email: "ops@provider.example", abbreviation: "PRV", created: expect.any(String) });
    const project = await t.http("GET", `/api/projects/${t.world.project.uuid}/`, { token: t.world.tokens.projectMember });
    expect(project.body).toMatchObject({ description: "secret plans", created: expect.any(String), customer_name: "Consumer Org" });
    const users = await t.http("GET", "/api/users/?username=projectAdmin", { token: t.world.tokens.projectMember });
    expect(users.body).toEqual([expect.objectContaining({ email: "projectAdmin@example.org", first_name: "projectAdmin", is_staff: false })]);
  });
});
