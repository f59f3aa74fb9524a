import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { movableClock } from "../../test/support/clock.ts";
import { newTokenKey, tokenDigest } from "./secrets.ts";

let t: TestApp;
/** The app's clock: real time, moved on by `advance` (the token cache's expiry is tested with it). */
const clock = movableClock();
beforeAll(async () => {
  t = await startTestApp({ tokenCacheMs: 5_000 }, { now: clock.now });
});
afterAll(() => t.close());

const PROTECTED = "/api/users/me/";

const withAuthorization = (authorization: string | undefined) =>
  t.http("GET", PROTECTED, { headers: authorization === undefined ? {} : { authorization } });

async function userWithToken(username: string, extra: { isActive?: boolean } = {}) {
  const user = await t.app.deps.db.user.create({ data: { username, ...extra } });
  const key = newTokenKey();
  await t.app.deps.db.authToken.create({ data: { keyDigest: tokenDigest(key), userId: user.id } });
  return key;
}

async function createUserWithPassword(username: string, password: string) {
  const res = await t.http("POST", "/api/users/", { token: t.world.tokens.staff, body: { username, password } });
  expect(res.status).toBe(201);
}

describe("401 answers (DRF TokenAuthentication)", () => {
  const CASES: Array<[string, () => string | undefined, string]> = [
    ["no Authorization header", () => undefined, "Authentication credentials were not provided."],
    ["a scheme other than Token", () => `Bearer ${t.world.tokens.staff}`, "Authentication credentials were not provided."],
    ["an unknown token", () => `Token ${newTokenKey()}`, "Invalid token."],
    ["a key that is not a token at all", () => "Token not-a-token", "Invalid token."],
    ["`Token` with no key", () => "Token", "Invalid token. No credentials provided."],
    ["`Token` followed by blanks only", () => "Token   ", "Invalid token. No credentials provided."],
    ["a key containing spaces", () => `Token ${t.world.tokens.staff} extra`, "Invalid token. Token string should not contain spaces."],
  ];
  for (const [name, authorization, detail] of CASES) {
    it(`${name} → 401 ${detail}`, async () => {
      const res = await withAuthorization(authorization());
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail });
      expect(res.headers.get("www-authenticate")).toBe("Token");
    });
  }

  it("an inactive user's token → 401 User inactive or deleted.", async () => {
    const key = await userWithToken("inactive-user", { isActive: false });
    const res = await withAuthorization(`Token ${key}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: "User inactive or deleted." });
    expect(res.headers.get("www-authenticate")).toBe("Token");
  });

  it("a user deactivated in the database loses access once the token cache (TOKEN_CACHE_MS) has let go of the token", async () => {
    const key = await userWithToken("soon-inactive");
    expect((await withAuthorization(`Token ${key}`)).status).toBe(200);
    await t.app.deps.db.user.update({ where: { username: "soon-inactive" }, data: { isActive: false } });
    expect((await withAuthorization(`Token ${key}`)).status).toBe(200);
    clock.advance(t.app.deps.config.tokenCacheMs + 1);
    expect((await withAuthorization(`Token ${key}`)).body).toEqual({ detail: "User inactive or deleted." });
  });

  it("a revoked token is refused on the very next request, cached or not", async () => {
    const key = await userWithToken("logs-out");
    expect((await withAuthorization(`Token ${key}`)).status).toBe(200);
    expect((await t.http("POST", "/api-auth/logout/", { token: key })).status).toBe(204);
    expect((await withAuthorization(`Token ${key}`)).body).toEqual({ detail: "Invalid token." });
  });

  it("401 is given on lists, objects and mutations alike", async () => {
    for (const [method, path] of [
      ["GET", "/api/customers/"],
      ["GET", `/api/marketplace-provider-offerings/${t.world.offering.uuid}/`],
      ["POST", "/api/customers/"],
      ["POST", `/api/marketplace-offering-users/${t.world.offering.uuid}/begin_creating/`],
    ]) {
      const res = await t.http(method, path, { body: method === "POST" ? { name: "x" } : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Token");
    }
  });
});

describe("accepted Authorization headers", () => {
  for (const scheme of ["Token", "token", "TOKEN", "tOkEn"]) {
    it(`scheme word "${scheme}" is accepted`, async () => {
      const res = await withAuthorization(`${scheme} ${t.world.tokens.projectMember}`);
      expect(res.status).toBe(200);
      expect(res.body.username).toBe("projectMember");
    });
  }

  it("surrounding whitespace and an upper-case key are tolerated", async () => {
    const res = await withAuthorization(`  Token   ${t.world.tokens.providerOwner.toUpperCase()}  `);
    expect(res.status).toBe(200);
    expect(res.body.username).toBe("providerOwner");
  });

  it("the x-auth-token query parameter is a fallback for the header", async () => {
    const res = await t.http("GET", `${PROTECTED}?x-auth-token=${t.world.tokens.offeringManager}`);
    expect(res.status).toBe(200);
    expect(res.body.username).toBe("offeringManager");
    const unknown = await t.http("GET", `${PROTECTED}?x-auth-token=${newTokenKey()}`);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ detail: "Invalid token." });
  });

  it("a public path ignores the missing header", async () => {
    const res = await t.http("POST", "/api-auth/password/", { body: { username: "nobody", password: "x" } });
    expect(res.status).toBe(400);
  });
});

describe("POST /api-auth/password/", () => {
  it("returns a working token for the right password", async () => {
    await createUserWithPassword("alice", "correct horse battery staple");
    const res = await t.http("POST", "/api-auth/password/", { body: { username: "alice", password: "correct horse battery staple" } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["token"]);
    expect(res.body.token).toMatch(/^[0-9a-f]{40}$/);
    const me = await t.http("GET", PROTECTED, { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe("alice");
  });

  it("issues a new token on each login; both keep working", async () => {
    await createUserWithPassword("bob", "s3cret-pass");
    const first = await t.http("POST", "/api-auth/password/", { body: { username: "bob", password: "s3cret-pass" } });
    const second = await t.http("POST", "/api-auth/password/", { body: { username: "bob", password: "s3cret-pass" } });
    expect(first.body.token).not.toBe(second.body.token);
    for (const token of [first.body.token, second.body.token]) {
      expect((await t.http("GET", PROTECTED, { token })).body.username).toBe("bob");
    }
  });

  const REJECTED: Array<[string, Record<string, unknown>]> = [
    ["a wrong password", { username: "carol", password: "wrong" }],
    ["an unknown user", { username: "nobody-here", password: "whatever" }],
    ["a user without a password", { username: "projectMember", password: "anything" }],
  ];
  for (const [name, body] of REJECTED) {
    it(`${name} → 400 non_field_errors`, async () => {
      await t.app.deps.db.user.deleteMany({ where: { username: "carol" } });
      await createUserWithPassword("carol", "carol-pass");
      const before = await t.app.deps.db.authToken.count();
      const res = await t.http("POST", "/api-auth/password/", { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ["Unable to log in with provided credentials."] });
      expect(await t.app.deps.db.authToken.count()).toBe(before);
    });
  }

  it("an inactive user cannot log in", async () => {
    await createUserWithPassword("dave", "dave-pass");
    await t.app.deps.db.user.update({ where: { username: "dave" }, data: { isActive: false } });
    const res = await t.http("POST", "/api-auth/password/", { body: { username: "dave", password: "dave-pass" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ non_field_errors: ["Unable to log in with provided credentials."] });
  });

  const MISSING: Array<[Record<string, unknown>, Record<string, string[]>]> = [
    [{}, { username: ["This field is required."], password: ["This field is required."] }],
    [{ username: "alice" }, { password: ["This field is required."] }],
    [{ password: "x" }, { username: ["This field is required."] }],
    [{ username: "", password: "" }, { username: ["This field may not be blank."], password: ["This field may not be blank."] }],
    [{ username: 5, password: null }, { username: ["Not a valid string."], password: ["This field may not be null."] }],
  ];
  for (const [body, errors] of MISSING) {
    it(`missing fields in ${JSON.stringify(body)} → 400 ${JSON.stringify(errors)}`, async () => {
      const res = await t.http("POST", "/api-auth/password/", { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
    });
  }

  it("GET is not allowed", async () => {
    const res = await t.http("GET", "/api-auth/password/");
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ detail: 'Method "GET" not allowed.' });
  });
});

describe("token storage", () => {
  it("keeps only a digest: the raw key appears nowhere in auth_tokens", async () => {
    await createUserWithPassword("erin", "erin-pass");
    const { body } = await t.http("POST", "/api-auth/password/", { body: { username: "erin", password: "erin-pass" } });
    const key: string = body.token;
    const { rows } = await t.app.database.sql.query("SELECT * FROM auth_tokens");
    const dump = JSON.stringify(rows).toLowerCase();
    expect(rows.length).toBeGreaterThan(0);
    expect(dump).not.toContain(key.toLowerCase());
    expect(dump).toContain(tokenDigest(key));
    for (const world of Object.values(t.world.tokens)) expect(dump).not.toContain(world.toLowerCase());
  });

  it("the stored digest cannot be used as a token", async () => {
    const digest = tokenDigest(t.world.tokens.staff);
    const res = await withAuthorization(`Token ${digest}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: "Invalid token." });
  });
});

describe("staff and support", () => {
  it("staff pass permission checks they hold no role for", async () => {
    const created = await t.http("POST", "/api/customers/", { token: t.world.tokens.staff, body: { name: "Staff Org" } });
    expect(created.status).toBe(201);
    const project = await t.http("POST", "/api/projects/", {
      token: t.world.tokens.staff,
      body: { customer: created.body.url, name: "Staff project" },
    });
    expect(project.status).toBe(201);
  });

  it("support read everything", async () => {
    const customers = await t.http("GET", "/api/customers/", { token: t.world.tokens.support });
    expect(customers.status).toBe(200);
    const names = customers.body.map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(["Provider Org", "Consumer Org"]));
    const project = await t.http("GET", `/api/projects/${t.world.project.uuid}/`, { token: t.world.tokens.support });
    expect(project.status).toBe(200);
  });

  it("support cannot mutate", async () => {
    const token = t.world.tokens.support;
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const attempts: Array<[string, string, Record<string, unknown>]> = [
      ["POST", "/api/customers/", { name: "Support Org" }],
      ["POST", "/api/users/", { username: "made-by-support" }],
      ["POST", "/api/projects/", { customer: t.world.consumer.uuid, name: "nope" }],
      ["POST", `/api/customers/${t.world.provider.uuid}/add_user/`, { user: t.world.users.support.uuid, role: "CUSTOMER.OWNER" }],
      ["POST", `/api/marketplace-offering-users/${ou.uuid}/begin_creating/`, {}],
    ];
    for (const [method, path, body] of attempts) {
      const res = await t.http(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ detail: "You do not have permission to perform this action." });
    }
    expect(await t.app.deps.db.customer.count({ where: { name: "Support Org" } })).toBe(0);
    expect((await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } })).state).toBe("CREATION_REQUESTED");
  });
});
