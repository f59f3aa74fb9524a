import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import type { Persona } from "../../test/support/world.ts";
import { Permission, Role, ROLE_PERMISSIONS } from "../auth/permissions.ts";
import { newTokenKey, tokenDigest } from "../auth/secrets.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const as = (persona: Persona) => t.world.tokens[persona];
const sorted = (permissions: readonly string[]) => [...permissions].sort();

const DASHBOARD = `query($offering: ID!, $project: ID!, $provider: ID!) {
  me {
    roles { role scopeType scopeUuid expirationTime scope { __typename ... on Customer { uuid } ... on Project { uuid } ... on Offering { uuid } } }
    providers { uuid name }
    onOffering: permissionsOn(scopeUuid: $offering, scopeType: OFFERING)
    onProject: permissionsOn(scopeUuid: $project, scopeType: PROJECT)
    onProvider: permissionsOn(scopeUuid: $provider, scopeType: CUSTOMER)
  }
}`;

async function dashboard(token: string | undefined) {
  const { world } = t;
  return t.gql(DASHBOARD, { offering: world.offering.uuid, project: world.project.uuid, provider: world.provider.uuid }, token);
}

async function dashboardOf(persona: Persona) {
  const res = await dashboard(as(persona));
  expect(res.errors).toBeUndefined();
  return res.data.me;
}

describe("me: roles, providers and permissions in one query", () => {
  it("a provider owner sees their CUSTOMER.OWNER grant with the customer as its scope node", async () => {
    const me = await dashboardOf("providerOwner");
    expect(me.roles).toEqual([
      {
        role: "CUSTOMER_OWNER",
        scopeType: "CUSTOMER",
        scopeUuid: t.world.provider.uuid,
        expirationTime: null,
        scope: { __typename: "Customer", uuid: t.world.provider.uuid },
      },
    ]);
    expect(me.providers).toEqual([{ uuid: t.world.provider.uuid, name: "Provider Org" }]);
  });

  it("the owner holds every permission on the offering; a project member none there and its own on the project", async () => {
    const owner = await dashboardOf("providerOwner");
    expect(owner.onOffering).toContain("UPDATE_OFFERING_USER");
    expect(owner.onOffering).toEqual(Object.values(Permission));
    expect(owner.onProject).toEqual([]);

    const member = await dashboardOf("projectMember");
    expect(member.onOffering).not.toContain("UPDATE_OFFERING_USER");
    expect(member.onOffering).toEqual([]);
    expect(sorted(member.onProject)).toEqual(sorted(ROLE_PERMISSIONS[Role.PROJECT_MEMBER]));
    expect(member.roles).toEqual([
      expect.objectContaining({ role: "PROJECT_MEMBER", scopeType: "PROJECT", scope: { __typename: "Project", uuid: t.world.project.uuid } }),
    ]);
    expect(member.providers).toEqual([]);
  });

  it("an offering manager's provider is the offering's customer; their permissions come from the table", async () => {
    const me = await dashboardOf("offeringManager");
    expect(me.roles).toEqual([expect.objectContaining({ role: "OFFERING_MANAGER", scope: { __typename: "Offering", uuid: t.world.offering.uuid } })]);
    expect(me.providers).toEqual([{ uuid: t.world.provider.uuid, name: "Provider Org" }]);
    expect(sorted(me.onOffering)).toEqual(sorted(ROLE_PERMISSIONS[Role.OFFERING_MANAGER]));
    expect(me.onProvider).toEqual([]);
  });

  it("provider support is on the provider side but may change nothing", async () => {
    const me = await dashboardOf("providerSupport");
    expect(me.providers).toEqual([{ uuid: t.world.provider.uuid, name: "Provider Org" }]);
    expect(me.onOffering).toEqual([]);
  });

  it("an unrelated user gets empty lists", async () => {
    expect(await dashboardOf("unrelated")).toEqual({ roles: [], providers: [], onOffering: [], onProject: [], onProvider: [] });
  });

  it("a customer role on a customer that is no service provider makes no provider", async () => {
    const me = await dashboardOf("projectAdmin");
    expect(me.providers).toEqual([]);
    const user = await newcomerWith({ role: "CUSTOMER.OWNER", scopeType: "CUSTOMER", scopeId: t.world.consumer.id });
    const res = await dashboard(user.token);
    expect(res.data.me.roles).toEqual([expect.objectContaining({ role: "CUSTOMER_OWNER", scopeUuid: t.world.consumer.uuid })]);
    expect(res.data.me.providers).toEqual([]);
    expect(res.data.me.onProject).toContain("UPDATE_PROJECT");
  });

  it("grants revoked or expired are left out", async () => {
    const past = new Date(Date.now() - 60_000);
    const user = await newcomerWith({ role: "CUSTOMER.OWNER", scopeType: "CUSTOMER", scopeId: t.world.provider.id, expirationTime: past });
    await t.app.deps.db.roleGrant.create({
      data: { userId: user.id, role: "OFFERING.MANAGER", scopeType: "OFFERING", scopeId: t.world.offering.id, isActive: false },
    });
    const res = await dashboard(user.token);
    expect(res.data.me).toEqual({ roles: [], providers: [], onOffering: [], onProject: [], onProvider: [] });
  });

  it("staff hold every permission on what exists, none on what does not", async () => {
    const me = await dashboardOf("staff");
    expect(me.onOffering).toEqual(Object.values(Permission));
    expect(me.roles).toEqual([]);
    const missing = await t.gql(`{ me { permissionsOn(scopeUuid: "00000000000000000000000000000000", scopeType: OFFERING) } }`, {}, as("staff"));
    expect(missing.data.me.permissionsOn).toEqual([]);
  });

  it("anonymous me is UNAUTHENTICATED", async () => {
    const res = await dashboard(undefined);
    expect(res.errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("another user's roles and permissions", () => {
  const OTHER = `query($uuid: ID!, $project: ID!) {
    user(uuid: $uuid) { username roles { role } providers { uuid } permissionsOn(scopeUuid: $project, scopeType: PROJECT) }
  }`;

  it("are empty for a viewer who may see the user but is not them", async () => {
    const ou = await t.gql(`query($uuid: ID!) { offeringUser(uuid: $uuid) { user { username roles { role } permissionsOn(scopeUuid: "${t.world.project.uuid}", scopeType: PROJECT) } } }`,
      { uuid: (await t.world.offeringUser()).uuid }, as("providerOwner"));
    expect(ou.errors).toBeUndefined();
    expect(ou.data.offeringUser.user).toMatchObject({ roles: [], permissionsOn: [] });
    expect(ou.data.offeringUser.user.username).toMatch(/^member/);
  });

  it("are the user's own, not the viewer's, for staff and support", async () => {
    for (const viewer of ["staff", "support"] as const) {
      const res = await t.gql(OTHER, { uuid: t.world.users.projectMember.uuid, project: t.world.project.uuid }, as(viewer));
      expect(res.errors).toBeUndefined();
      expect(res.data.user.roles).toEqual([{ role: "PROJECT_MEMBER" }]);
      expect(sorted(res.data.user.permissionsOn)).toEqual(sorted(ROLE_PERMISSIONS[Role.PROJECT_MEMBER]));
    }
    const owner = await t.gql(OTHER, { uuid: t.world.users.providerOwner.uuid, project: t.world.project.uuid }, as("support"));
    expect(owner.data.user.providers).toEqual([{ uuid: t.world.provider.uuid }]);
  });
});

let counter = 0;
/** A user with a token and one role grant. */
async function newcomerWith(grant: { role: string; scopeType: "CUSTOMER" | "PROJECT" | "OFFERING"; scopeId: string; expirationTime?: Date }) {
  counter += 1;
  const db = t.app.deps.db;
  const user = await db.user.create({ data: { username: `viewer-test${counter}` } });
  const token = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(token), userId: user.id } });
  await db.roleGrant.create({ data: { userId: user.id, ...grant } });
  return { id: user.id, token };
}
