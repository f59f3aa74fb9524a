import { getOperationAST, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../rest-adapter/routes/index.ts";
import { type App, createApp } from "../app.ts";
import { startTestApp } from "../../test/support/app.ts";
import { useSubscriptionApp } from "../../test/support/subscription-app.ts";
import type { AppDeps } from "../context.ts";
import { loadRateLimitSettings, mutationRateLimit } from "./rate-limit.ts";

const LIMIT = 4;
const WINDOW_SECONDS = 60;
const WINDOW_START = new Date("2030-01-01T00:00:00Z").getTime();

/** The app's clock: starts 10 s into a window, so Retry-After is 50. */
let clock = WINDOW_START + 10_000;
const { t, clients } = useSubscriptionApp({ rateLimitMutations: LIMIT, rateLimitWindowSeconds: WINDOW_SECONDS }, { now: () => new Date(clock) });

const THROTTLED = { detail: "Request was throttled. Expected available in 50 seconds." };

const comment = (token: string, uuid: string) =>
  t.http("PATCH", `/api/marketplace-offering-users/${uuid}/update_comments/`, { token, body: { service_provider_comment: "x" } });
const commentOverGraphql = async (token: string, uuid: string) => {
  const response = await t.http("POST", "/graphql", {
    token,
    body: { query: `mutation($uuid: ID!) { updateOfferingUserComments(uuid: $uuid, serviceProviderComment: "y") { uuid } }`, variables: { uuid } },
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), errors: response.body.errors, data: response.body.data };
};

/** Moves the clock to the same offset in the next window, which starts every budget afresh. */
const nextWindow = () => {
  clock += WINDOW_SECONDS * 1000;
};

describe("mutation rate limit", () => {
  it("REST writes and GraphQL mutations share one budget per caller; beyond it 429 with Retry-After and DRF's body", async () => {
    nextWindow();
    const ou = await t.world.offeringUser("OK");
    const token = t.world.tokens.providerOwner;
    expect((await comment(token, ou.uuid)).status).toBe(200);
    expect((await commentOverGraphql(token, ou.uuid)).data?.updateOfferingUserComments.uuid).toBe(ou.uuid);
    expect((await comment(token, ou.uuid)).status).toBe(200);
    expect((await commentOverGraphql(token, ou.uuid)).errors).toBeUndefined();

    const rest = await comment(token, ou.uuid);
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual(THROTTLED);
    expect(rest.headers.get("retry-after")).toBe("50");

    const graphql = await commentOverGraphql(token, ou.uuid);
    expect(graphql).toMatchObject({ status: 429, retryAfter: "50" });
    expect(graphql.errors).toEqual([{ message: THROTTLED.detail, extensions: { code: "RATE_LIMITED", retryAfter: 50 } }]);
    expect(graphql.data).toBeUndefined();
  });

  it("a throttled mutation changes nothing", async () => {
    nextWindow();
    const ou = await t.world.offeringUser("CREATING");
    const token = t.world.tokens.providerOwner;
    for (let i = 0; i < LIMIT; i++) await comment(token, ou.uuid);
    const res = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/set_ok/`, { token });
    expect(res.status).toBe(429);
    expect((await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } })).state).toBe("CREATING");
  });

  it("reads are never limited, and another caller keeps a budget of its own", async () => {
    nextWindow();
    const ou = await t.world.offeringUser("OK");
    const token = t.world.tokens.providerOwner;
    for (let i = 0; i < LIMIT; i++) await comment(token, ou.uuid);
    expect((await comment(token, ou.uuid)).status).toBe(429);

    for (let i = 0; i < LIMIT * 3; i++) {
      expect((await t.http("GET", `/api/marketplace-offering-users/${ou.uuid}/`, { token })).status).toBe(200);
      expect((await t.gql(`query($uuid: ID!) { offeringUser(uuid: $uuid) { uuid } }`, { uuid: ou.uuid }, token)).errors).toBeUndefined();
    }
    expect((await comment(t.world.tokens.providerManager, ou.uuid)).status).toBe(200);
    expect((await commentOverGraphql(t.world.tokens.offeringManager, ou.uuid)).errors).toBeUndefined();
  });

  it("the budget comes back when the window ends", async () => {
    nextWindow();
    const ou = await t.world.offeringUser("OK");
    const token = t.world.tokens.providerOwner;
    for (let i = 0; i < LIMIT; i++) expect((await comment(token, ou.uuid)).status).toBe(200);
    clock += 49_000;
    const late = await comment(token, ou.uuid);
    expect(late.status).toBe(429);
    expect(late.headers.get("retry-after")).toBe("1");
    expect(late.body).toEqual({ detail: "Request was throttled. Expected available in 1 second." });
    clock += 1_000;
    expect((await comment(token, ou.uuid)).status).toBe(200);
    clock -= 50_000;
  });

  it("mutations over graphql-ws draw on the same budget", async () => {
    nextWindow();
    const ou = await t.world.offeringUser("OK");
    const token = t.world.tokens.providerOwner;
    for (let i = 0; i < LIMIT; i++) await comment(token, ou.uuid);
    const feed = clients.subscribe(clients.open(token), `mutation($uuid: ID!) { updateOfferingUserComments(uuid: $uuid, serviceProviderComment: "z") { uuid } }`, { uuid: ou.uuid });
    const delivery = await feed.next();
    expect(delivery.errors?.[0]).toMatchObject({ message: THROTTLED.detail, extensions: { code: "RATE_LIMITED" } });
  });

  it("anonymous mutations (login attempts) are counted per client address", async () => {
    nextWindow();
    const login = () => t.http("POST", "/api-auth/password/", { body: { username: "staff", password: "wrong" } });
    for (let i = 0; i < LIMIT; i++) expect((await login()).status).toBe(400);
    const throttled = await login();
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual(THROTTLED);
  });

  it("every REST write route runs a mutation and every read a query, so the one plugin sees all writes", () => {
    const kinds = ROUTES.map((route) => `${route.method === "GET" ? "read" : "write"} ${getOperationAST(parse(route.document))?.operation}`);
    expect(new Set(kinds)).toEqual(new Set(["read query", "write mutation"]));
  });
});

describe("settings", () => {
  it("default to 120 mutations per 60 s; 0 switches the limit off; nonsense fails the start", () => {
    expect(loadRateLimitSettings({})).toEqual({ rateLimitMutations: 120, rateLimitWindowSeconds: 60 });
    expect(loadRateLimitSettings({ RATE_LIMIT_MUTATIONS: "0", RATE_LIMIT_WINDOW_SECONDS: "5" })).toEqual({ rateLimitMutations: 0, rateLimitWindowSeconds: 5 });
    expect(() => loadRateLimitSettings({ RATE_LIMIT_MUTATIONS: "-1" })).toThrow(/RATE_LIMIT_MUTATIONS/);
    expect(() => loadRateLimitSettings({ RATE_LIMIT_WINDOW_SECONDS: "0" })).toThrow(/RATE_LIMIT_WINDOW_SECONDS/);
  });

  it("with the limit off, nothing is throttled", async () => {
    const unlimited = await startTestApp();
    try {
      const ou = await unlimited.world.offeringUser("OK");
      const path = `/api/marketplace-offering-users/${ou.uuid}/update_comments/`;
      const statuses = [];
      for (let i = 0; i < 30; i++) statuses.push((await unlimited.http("PATCH", path, { token: unlimited.world.tokens.staff, body: {} })).status);
      expect(new Set(statuses)).toEqual(new Set([200]));
    } finally {
      await unlimited.close();
    }
  });
});

describe("when Redis does not answer", () => {
  it("mutations run: counting fails open", async () => {
    const deps = { config: { rateLimitMutations: 1, rateLimitWindowSeconds: 60, redisUrl: "redis://127.0.0.1:1", pubsubPrefix: "unreachable" }, now: () => new Date() };
    const plugin = mutationRateLimit(deps as unknown as AppDeps);
    const stops: unknown[] = [];
    const execute = () =>
      plugin.onExecute!({
        args: { document: parse("mutation { obtainToken(username: \"a\", password: \"b\") { token } }"), contextValue: { viewer: null, ipAddress: "192.0.2.1" } },
        setResultAndStopExecution: (result: unknown) => stops.push(result),
      } as never);
    for (let i = 0; i < 3; i++) await execute();
    expect(stops).toEqual([]);
    await plugin.onDispose!();
  });
});

describe.runIf(process.env.REDIS_URL)("on Redis", () => {
  it("two instances on one database share each caller's budget", async () => {
    nextWindow();
    const second: App = await createApp({
      database: t.app.database,
      now: () => new Date(clock),
      config: { ...t.app.deps.config, seedDemo: false },
    });
    try {
      const port = await second.listen(0, "127.0.0.1");
      const ou = await t.world.offeringUser("OK");
      const token = t.world.tokens.providerOwner;
      const onSecond = () =>
        fetch(`http://127.0.0.1:${port}/api/marketplace-offering-users/${ou.uuid}/update_comments/`, {
          method: "PATCH",
          headers: { authorization: `Token ${token}`, "content-type": "application/json" },
          body: "{}",
        });
      for (let i = 0; i < LIMIT / 2; i++) {
        expect((await comment(token, ou.uuid)).status).toBe(200);
        expect((await onSecond()).status).toBe(200);
      }
      const refused = await onSecond();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("50");
      expect((await comment(token, ou.uuid)).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});
