import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import type { Persona } from "../../test/support/world.ts";
import { newTokenKey, tokenDigest } from "../auth/secrets.ts";
import { toHex } from "../platform/ids.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const as = (persona: Persona) => t.world.tokens[persona];
let counter = 0;

/** A user with a token and no role anywhere. */
async function newcomer() {
  counter += 1;
  const user = await t.app.deps.db.user.create({ data: { username: `newcomer${counter}` } });
  const token = newTokenKey();
  await t.app.deps.db.authToken.create({ data: { keyDigest: tokenDigest(token), userId: user.id } });
  return { id: user.id, uuid: toHex(user.id), username: user.username, token };
}

/** The three scopes, each with a role that fits it, one that does not, and who may manage its roles. */
const SCOPES = [
  { name: "customers", base: "/api/customers", uuid: () => t.world.provider.uuid, role: "CUSTOMER.MANAGER", wrongRole: "PROJECT.ADMIN", manager: "providerOwner" as Persona },
  { name: "projects", base: "/api/projects", uuid: () => t.world.project.uuid, role: "PROJECT.MEMBER", wrongRole: "OFFERING.MANAGER", manager: "staff" as Persona },
  { name: "offerings", base: "/api/marketplace-provider-offerings", uuid: () => t.world.offering.uuid, role: "OFFERING.MANAGER", wrongRole: "CUSTOMER.OWNER", manager: "providerOwner" as Persona },
];

const addUser = (base: string, uuid: string, token: string, body: Record<string, unknown>) =>
  t.http("POST", `${base}/${uuid}/add_user/`, { token, body });
const deleteUser = (base: string, uuid: string, token: string, body: Record<string, unknown>) =>
  t.http("POST", `${base}/${uuid}/delete_user/`, { token, body });
const activeGrants = (userId: string) => t.app.deps.db.roleGrant.count({ where: { userId, isActive: true } });

describe.each(SCOPES)("add_user / delete_user on $name", (scope) => {
  it("add_user → 201 {user, role, expiration_time}; delete_user removes it", async () => {
    const user = await newcomer();
    const expiration = "2099-01-01T10:00:00Z";
    const res = await addUser(scope.base, scope.uuid(), as(scope.manager), { user: user.uuid, role: scope.role, expiration_time: expiration });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ user: user.uuid, role: scope.role, expiration_time: expiration });
    expect(await activeGrants(user.id)).toBe(1);

    const removed = await deleteUser(scope.base, scope.uuid(), as(scope.manager), { user: user.uuid, role: scope.role });
    expect(removed.status).toBe(200);
    expect(await activeGrants(user.id)).toBe(0);
  });

  it("add_user and delete_user write role_granted and role_revoked about the user, in the scope and its owners' feeds", async () => {
    const user = await newcomer();
    expect((await addUser(scope.base, scope.uuid(), as(scope.manager), { user: user.uuid, role: scope.role })).status).toBe(201);
    expect((await deleteUser(scope.base, scope.uuid(), as(scope.manager), { user: user.uuid, role: scope.role })).status).toBe(200);
    const events = await t.app.deps.db.event.findMany({
      where: { scopes: { some: { scopeType: "USER", scopeId: user.id } } },
      orderBy: { id: "asc" },
      select: { eventType: true, message: true, context: true, scopes: { select: { scopeId: true } } },
    });
    expect(events.map((event) => event.eventType)).toEqual(["role_granted", "role_revoked"]);
    const [granted, revoked] = events;
    expect(granted.message).toMatch(new RegExp(`^User ${user.username} has gained role ${scope.role} in .+\\.$`));
    expect(revoked.message).toBe(granted.message.replace("has gained", "has lost"));
    for (const event of events) {
      expect(event.context).toMatchObject({ affected_user_uuid: user.uuid, affected_user_username: user.username, role_name: scope.role, scope_uuid: scope.uuid() });
      expect(event.scopes.map((s) => toHex(s.scopeId))).toEqual(expect.arrayContaining([scope.uuid(), user.uuid]));
    }
  });

  it("a user URL is accepted as well as a uuid; no expiration → null", async () => {
    const user = await newcomer();
    const res = await addUser(scope.base, scope.uuid(), as("staff"), { user: `${t.baseUrl}/api/users/${user.uuid}/`, role: scope.role });
    expect(res.status).toBe(201);
    expect(res.body.expiration_time).toBeNull();
  });

  it("a role meant for another kind of object → 400", async () => {
    const user = await newcomer();
    const res = await addUser(scope.base, scope.uuid(), as("staff"), { user: user.uuid, role: scope.wrongRole });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ role: [`"${scope.wrongRole}" is not a valid role for this object.`] });
    expect(await activeGrants(user.id)).toBe(0);
  });

  it("the same role twice → 400", async () => {
    const user = await newcomer();
    expect((await addUser(scope.base, scope.uuid(), as("staff"), { user: user.uuid, role: scope.role })).status).toBe(201);
    const again = await addUser(scope.base, scope.uuid(), as("staff"), { user: user.uuid, role: scope.role });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ non_field_errors: ["User already has role within this scope."] });
    expect(await activeGrants(user.id)).toBe(1);
  });

  it("expiration_time in the past → 400", async () => {
    const user = await newcomer();
    const res = await addUser(scope.base, scope.uuid(), as("staff"), { user: user.uuid, role: scope.role, expiration_time: "2001-01-01T00:00:00Z" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ expiration_time: ["Expiration time should be greater than current time."] });
    expect(await activeGrants(user.id)).toBe(0);
  });

  it("an unknown user → 400 invalid hyperlink", async () => {
    const res = await addUser(scope.base, scope.uuid(), as("staff"), { user: "f".repeat(32), role: scope.role });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ user: ["Invalid hyperlink - Object does not exist."] });
  });

  it("concurrent add_user calls for the same role grant it once", async () => {
    const user = await newcomer();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => addUser(scope.base, scope.uuid(), as("staff"), { user: user.uuid, role: scope.role })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    expect(await activeGrants(user.id)).toBe(1);
  });

  it("removing a role the user does not hold → 404", async () => {
    const user = await newcomer();
    const res = await deleteUser(scope.base, scope.uuid(), as("staff"), { user: user.uuid, role: scope.role });
    expect(res.status).toBe(404);
  });
});

describe("who may manage roles", () => {
  const DENIED: Array<[string, () => string, Persona, number]> = [
    ["/api/customers", () => t.world.provider.uuid, "providerManager", 403],
    ["/api/customers", () => t.world.provider.uuid, "providerSupport", 403],
    ["/api/customers", () => t.world.provider.uuid, "offeringManager", 403],
    ["/api/customers", () => t.world.provider.uuid, "support", 403],
    ["/api/customers", () => t.world.provider.uuid, "unrelated", 404],
    ["/api/projects", () => t.world.project.uuid, "projectAdmin", 403],
    ["/api/projects", () => t.world.project.uuid, "projectMember", 403],
    ["/api/projects", () => t.world.project.uuid, "providerOwner", 404],
    ["/api/marketplace-provider-offerings", () => t.world.offering.uuid, "offeringManager", 403],
    ["/api/marketplace-provider-offerings", () => t.world.offering.uuid, "providerManager", 403],
    ["/api/marketplace-provider-offerings", () => t.world.offering.uuid, "unrelated", 403],
  ];
  for (const [base, uuid, persona, status] of DENIED) {
    it(`${persona} on ${base} → ${status} for add_user and delete_user`, async () => {
      const user = await newcomer();
      const role = { "/api/customers": "CUSTOMER.OWNER", "/api/projects": "PROJECT.ADMIN", "/api/marketplace-provider-offerings": "OFFERING.MANAGER" }[base]!;
      const added = await addUser(base, uuid(), as(persona), { user: user.uuid, role });
      expect(added.status).toBe(status);
      expect(await activeGrants(user.id)).toBe(0);
      const removed = await deleteUser(base, uuid(), as(persona), { user: t.world.users[persona].uuid, role });
      expect(removed.status).toBe(status);
    });
  }

  it("a project role is managed by the owner of the project's customer", async () => {
    const owner = await newcomer();
    expect((await addUser("/api/customers", t.world.consumer.uuid, as("staff"), { user: owner.uuid, role: "CUSTOMER.OWNER" })).status).toBe(201);
    const member = await newcomer();
    const res = await addUser("/api/projects", t.world.project.uuid, owner.token, { user: member.uuid, role: "PROJECT.MEMBER" });
    expect(res.status).toBe(201);
  });
});

describe("effect of a role", () => {
  const beginCreating = async (token: string) => {
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const res = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, { token });
    const after = await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } });
    return { status: res.status, state: after.state };
  };

  it("a new CUSTOMER.OWNER of the provider can transition an offering user at once; after delete_user they cannot", async () => {
    const user = await newcomer();
    expect((await beginCreating(user.token)).state).toBe("CREATION_REQUESTED");

    const granted = await addUser("/api/customers", t.world.provider.uuid, as("providerOwner"), { user: user.uuid, role: "CUSTOMER.OWNER" });
    expect(granted.status).toBe(201);
    expect(await beginCreating(user.token)).toEqual({ status: 200, state: "CREATING" });

    const revoked = await deleteUser("/api/customers", t.world.provider.uuid, as("providerOwner"), { user: user.uuid, role: "CUSTOMER.OWNER" });
    expect(revoked.status).toBe(200);
    const after = await beginCreating(user.token);
    expect([403, 404]).toContain(after.status);
    expect(after.state).toBe("CREATION_REQUESTED");
  });

  it("a new OFFERING.MANAGER can transition that offering's users", async () => {
    const user = await newcomer();
    expect((await addUser("/api/marketplace-provider-offerings", t.world.offering.uuid, as("providerOwner"), { user: user.uuid, role: "OFFERING.MANAGER" })).status).toBe(201);
    expect(await beginCreating(user.token)).toEqual({ status: 200, state: "CREATING" });
  });

  it("a new project member sees the project and its customer", async () => {
    const user = await newcomer();
    expect((await t.http("GET", `/api/projects/${t.world.project.uuid}/`, { token: user.token })).status).toBe(404);
    await addUser("/api/projects", t.world.project.uuid, as("staff"), { user: user.uuid, role: "PROJECT.MEMBER" });
    expect((await t.http("GET", `/api/projects/${t.world.project.uuid}/`, { token: user.token })).status).toBe(200);
    const customers = await t.http("GET", "/api/customers/", { token: user.token });
    expect(customers.body.map((c: { uuid: string }) => c.uuid)).toEqual([t.world.consumer.uuid]);
  });

  it("an expired role grants nothing", async () => {
    const user = await newcomer();
    const granted = await addUser("/api/customers", t.world.provider.uuid, as("staff"), {
      user: user.uuid,
      role: "CUSTOMER.OWNER",
      expiration_time: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(granted.status).toBe(201);
    expect((await beginCreating(user.token)).status).toBe(200);

    await t.app.deps.db.roleGrant.updateMany({ where: { userId: user.id }, data: { expirationTime: new Date(Date.now() - 1000) } });
    // Changed in the database, not through the gateway: seen once the cached roles (TOKEN_CACHE_MS) are let go.
    t.app.deps.sessions.grants.clear();
    const after = await beginCreating(user.token);
    expect([403, 404]).toContain(after.status);
    expect(after.state).toBe("CREATION_REQUESTED");
    expect((await t.http("GET", `/api/customers/${t.world.provider.uuid}/`, { token: user.token })).status).toBe(404);
    const manage = await addUser("/api/customers", t.world.provider.uuid, user.token, { user: user.uuid, role: "CUSTOMER.MANAGER" });
    expect(manage.status).toBe(404);
  });

  it("after an expired grant, the same role can be granted again", async () => {
    const user = await newcomer();
    await t.app.deps.db.roleGrant.create({
      data: { userId: user.id, role: "CUSTOMER.MANAGER", scopeType: "CUSTOMER", scopeId: t.world.provider.id, expirationTime: new Date(Date.now() - 1000) },
    });
    const res = await addUser("/api/customers", t.world.provider.uuid, as("staff"), { user: user.uuid, role: "CUSTOMER.MANAGER" });
    expect(res.status).toBe(201);
    expect((await beginCreating(user.token)).status).toBe(200);
  });
});
