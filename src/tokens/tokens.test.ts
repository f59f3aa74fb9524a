import { request as httpRequest } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../app.ts";
import { toHex } from "../platform/ids.ts";
import { useSubscriptionApp } from "../../test/support/subscription-app.ts";
import { closeOnInit, sleep, SubscriptionClients } from "../../test/support/ws.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { LAST_USED_REFRESH_MS } from "../auth/authenticate.ts";
import { newTokenKey, tokenDigest } from "../auth/secrets.ts";

const redisUrl = process.env.REDIS_URL;
const pubsubPrefix = `tokens-${Math.random().toString(16).slice(2, 10)}`;

/** The app's clock: real time plus what the tests skipped ahead. */
let skippedMs = 0;
const now = () => new Date(Date.now() + skippedMs);
const skip = (seconds: number) => (skippedMs += seconds * 1000);

const CAP = 3;
const { t, clients } = useSubscriptionApp(
  { websocketTokenCheckMs: 100, websocketMaxConnectionsPerUser: CAP, ...(redisUrl ? { redisUrl, pubsubPrefix } : {}) },
  { now },
);

const EVENTS = `subscription { eventCreated { id eventType } }`;

/** An SSE subscription request over node:http (undici's fetch trips over a stream the server ends at once). */
function sseRequest(key: string) {
  return new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => {
    const request = httpRequest(`${t.baseUrl}/graphql`, {
      method: "POST",
      headers: { accept: "text/event-stream", "content-type": "application/json", authorization: `Token ${key}` },
    });
    request.on("response", (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers["retry-after"] as string | undefined, body }));
    });
    request.on("error", reject);
    request.end(JSON.stringify({ query: EVENTS }));
  });
}

let users = 0;
async function userWithToken(tokenLifetime: number | null = null) {
  const user = await t.app.deps.db.user.create({ data: { username: `token-user-${++users}`, tokenLifetime } });
  const key = newTokenKey();
  await t.app.deps.db.authToken.create({ data: { keyDigest: tokenDigest(key), userId: user.id, created: now(), lastUsed: now() } });
  return { id: user.id, uuid: toHex(user.id), key };
}

const me = (key: string) => t.http("GET", "/api/users/me/", { token: key });
const lastUsed = async (key: string) => (await t.app.deps.db.authToken.findUniqueOrThrow({ where: { keyDigest: tokenDigest(key) } })).lastUsed;

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await sleep(20);
  }
}
const held = (userId: string, count: number) => until(() => t.app.deps.sessions.heldBy(userId) === count);

/** A graphql-ws subscription and an SSE stream, both open with `key`. */
async function openStreams(user: { id: string; key: string }) {
  const socketFeed = clients.subscribe(clients.open(user.key), EVENTS);
  await held(user.id, 1);
  const sseFeed = await clients.overSse(user.key, EVENTS);
  expect(sseFeed.status).toBe(200);
  await held(user.id, 2);
  return { socketFeed, sseFeed };
}

async function expectClosed(streams: Awaited<ReturnType<typeof openStreams>>, reason: string) {
  expect(await streams.socketFeed.failed()).toMatchObject({ code: 4401, reason });
  expect((await streams.sseFeed.next()).errors?.[0]).toMatchObject({ message: reason, extensions: { code: "UNAUTHENTICATED" } });
  await until(() => streams.sseFeed.completed);
}

describe("token_lifetime (Waldur's idle expiry)", () => {
  it("is the user's own to read and set on /api/users/, with Waldur's validation", async () => {
    const user = await userWithToken();
    expect((await me(user.key)).body.token_lifetime).toBeNull();
    const set = await t.http("PATCH", `/api/users/${user.uuid}/`, { token: user.key, body: { token_lifetime: 3600 } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ uuid: user.uuid, token_lifetime: 3600 });

    const CASES: Array<[unknown, string]> = [
      [59, "Ensure this value is greater than or equal to 60."],
      [2_147_483_648, "Ensure this value is less than or equal to 2147483647."],
      ["soon", "A valid integer is required."],
      [1.5, "A valid integer is required."],
    ];
    for (const [value, message] of CASES) {
      const res = await t.http("PATCH", `/api/users/${user.uuid}/`, { token: user.key, body: { token_lifetime: value } });
      expect([res.status, res.body]).toEqual([400, { token_lifetime: [message] }]);
    }
    const other = await userWithToken();
    expect((await t.http("PATCH", `/api/users/${user.uuid}/`, { token: other.key, body: { token_lifetime: null } })).status).toBe(404);
    expect((await t.http("PATCH", `/api/users/${user.uuid}/`, { token: t.world.tokens.staff, body: { token_lifetime: null } })).body.token_lifetime).toBeNull();
    const viaGraphql = await t.gql(`query($uuid: ID!) { user(uuid: $uuid) { tokenLifetime } }`, { uuid: user.uuid }, user.key);
    expect(viaGraphql.data).toEqual({ user: { tokenLifetime: null } });
  });

  it("over GraphQL, an out-of-range lifetime is an error of the tokenLifetime argument", async () => {
    const user = await userWithToken();
    const res = await t.gql(
      `mutation($id: ID!) { updateUser(input: { id: $id, tokenLifetime: 59 }) { ... on User { uuid } ${failuresOf("updateUser")} } }`,
      { id: globalId("User", user.uuid) },
      user.key,
    );
    expect(res.data?.updateUser).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(res.data?.updateUser)).toEqual({ tokenLifetime: ["Ensure this value is greater than or equal to 60."] });
  });

  it("refuses a token idle for longer than the lifetime with 401 Token has expired.; each use restarts it", async () => {
    const user = await userWithToken(120);
    const initial = await lastUsed(user.key);
    skip(30);
    expect((await me(user.key)).status).toBe(200);
    expect(await lastUsed(user.key)).toEqual(initial); // no write within a minute of the last one
    skip(40); // a minute since the recorded use: this one is written
    expect((await me(user.key)).status).toBe(200);
    expect((await lastUsed(user.key)).getTime()).toBeGreaterThan(initial.getTime() + LAST_USED_REFRESH_MS);
    skip(110); // 180 s after creation, 110 s after the last recorded use
    expect((await me(user.key)).status).toBe(200);
    skip(181); // past the lifetime plus the minute a recorded use may lag behind
    const expired = await me(user.key);
    expect([expired.status, expired.body]).toEqual([401, { detail: "Token has expired." }]);
    expect(expired.headers.get("www-authenticate")).toBe("Token");
    expect(await closeOnInit(t.port, { authorization: `Token ${user.key}` })).toMatchObject({ code: 4403, acknowledged: false });
  });

  it("never expires a token in steady use, even at the shortest lifetime (its recorded use lags by up to a minute)", async () => {
    const user = await userWithToken(60);
    for (let second = 0; second < 300; second += 20) {
      skip(20);
      expect((await me(user.key)).status).toBe(200);
    }
  });

  it("closes the token's open graphql-ws connection and SSE stream once it has expired", async () => {
    const user = await userWithToken(60);
    const streams = await openStreams(user);
    skip(121);
    await expectClosed(streams, "Token has expired.");
    expect(t.app.deps.sessions.heldBy(user.id)).toBe(0);
  });
});

describe("revoking a token", () => {
  it("logout (POST /api-auth/logout/) revokes the caller's token and closes what it opened", async () => {
    const user = await userWithToken();
    const otherKey = newTokenKey();
    await t.app.deps.db.authToken.create({ data: { keyDigest: tokenDigest(otherKey), userId: user.id } });
    const streams = await openStreams(user);

    const res = await t.http("POST", "/api-auth/logout/", { token: user.key });
    expect([res.status, res.text]).toEqual([204, ""]);
    await expectClosed(streams, "Token has been revoked.");
    expect((await me(user.key)).body).toEqual({ detail: "Invalid token." });
    expect((await me(otherKey)).status).toBe(200); // the user's other tokens stay
    expect((await t.http("POST", "/api-auth/logout/")).status).toBe(401);
  });

  it("logout over GraphQL", async () => {
    const user = await userWithToken();
    const res = await t.gql(`mutation { logout { user { uuid } } }`, {}, user.key);
    expect(res).toEqual({ data: { logout: { user: { uuid: user.uuid } } } });
    expect((await me(user.key)).status).toBe(401);
  });

  it("refreshUserToken over GraphQL: a UserAuthToken for staff, typed failures otherwise", async () => {
    const user = await userWithToken();
    const REFRESH = `mutation($uuid: ID!) { refreshUserToken(input: { userUuid: $uuid }) { ... on UserAuthToken { token user { uuid } } ${failuresOf("refreshUserToken")} } }`;
    const denied = await t.gql(REFRESH, { uuid: user.uuid }, user.key);
    expect(denied.data?.refreshUserToken).toMatchObject({ __typename: "PermissionDeniedError", code: "FORBIDDEN" });
    const missing = await t.gql(REFRESH, { uuid: "0".repeat(32) }, t.world.tokens.staff);
    expect(missing.data?.refreshUserToken).toMatchObject({ __typename: "NotFoundError", code: "NOT_FOUND" });
    const refreshed = await t.gql(REFRESH, { uuid: user.uuid }, t.world.tokens.staff);
    expect(refreshed.data?.refreshUserToken).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/), user: { uuid: user.uuid } });
    expect((await me(user.key)).status).toBe(401);
  });

  it("refresh_token (staff) replaces every token of the user and closes what they opened", async () => {
    const user = await userWithToken(3600);
    const streams = await openStreams(user);
    const forbidden = await t.http("POST", `/api/users/${user.uuid}/refresh_token/`, { token: user.key });
    expect(forbidden.status).toBe(403);

    const res = await t.http("POST", `/api/users/${user.uuid}/refresh_token/`, { token: t.world.tokens.staff });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      created: expect.any(String),
      user_first_name: "",
      user_last_name: "",
      user_username: expect.stringMatching(/^token-user-/),
      user_is_active: true,
      user_token_lifetime: 3600,
      token: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    await expectClosed(streams, "Token has been revoked.");
    expect((await me(user.key)).status).toBe(401);
    expect((await me(res.body.token)).body.uuid).toBe(user.uuid);
  });

  it.skipIf(!redisUrl)("closes what the token opened on another instance (Redis pub/sub)", async () => {
    const other: App = await createApp({
      database: t.app.database,
      now,
      config: { seedDemo: false, logLevel: "silent", rateLimitMutations: 0, redisUrl, pubsubPrefix, websocketTokenCheckMs: 60_000 },
    });
    const port = await other.listen(0, "127.0.0.1");
    const otherClients = new SubscriptionClients(port);
    const revokeElsewhere = async (waitMs: number) => {
      const user = await userWithToken();
      const feed = otherClients.subscribe(otherClients.open(user.key), EVENTS);
      await until(() => other.deps.sessions.heldBy(user.id) === 1);
      expect((await t.http("POST", "/api-auth/logout/", { token: user.key })).status).toBe(204);
      return feed.failed(waitMs);
    };
    try {
      // The new instance hears revocations once Redis has confirmed its subscription: wait for the first one.
      for (let attempt = 0; attempt < 20 && !(await revokeElsewhere(250)); attempt++);
      // Long before the other instance's own check (a minute): the revocation came over pub/sub.
      expect(await revokeElsewhere(3_000)).toMatchObject({ code: 4401, reason: "Token has been revoked." });
    } finally {
      await otherClients.closeAll();
      await other.close();
    }
  });
});

describe("per-user cap on open connections (GRAPHQL_WS_MAX_CONNECTIONS_PER_USER)", () => {
  it("counts graphql-ws connections and SSE streams together: 4429 and 429 + Retry-After beyond it", async () => {
    const user = await userWithToken();
    const first = clients.open(user.key);
    clients.subscribe(first, EVENTS);
    await held(user.id, 1);
    await clients.overSse(user.key, EVENTS);
    clients.subscribe(clients.open(user.key), EVENTS);
    await held(user.id, CAP);

    expect(await closeOnInit(t.port, { authorization: `Token ${user.key}` })).toEqual({ code: 4429, reason: "Too many connections.", acknowledged: false });
    const sse = await sseRequest(user.key);
    expect([sse.status, sse.retryAfter]).toEqual([429, "30"]);
    expect(sse.body).toContain("Too many connections.");
    // Another user is not affected.
    expect((await closeOnInit(t.port, { authorization: `Token ${t.world.tokens.staff}` })).acknowledged).toBe(true);

    await first.dispose();
    await held(user.id, CAP - 1);
    expect((await closeOnInit(t.port, { authorization: `Token ${user.key}` })).acknowledged).toBe(true);
  });
});

afterAll(() => {
  skippedMs = 0;
});
