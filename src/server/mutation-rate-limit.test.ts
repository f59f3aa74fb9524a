import { getOperationAST, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { REST_API } from "../modules.ts";
import { type App, createApp } from "../app.ts";
import { startTestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { useSubscriptionApp } from "../../test/support/subscription-app.ts";
import type { AppDeps } from "../context.ts";
import { loadConfig } from "../platform/settings/config.ts";
import { loadRateLimitSettings, mutationBucket } from "../platform/throttling/rate-limit.ts";
import { mutationFieldCount, mutationRateLimit } from "./mutation-rate-limit.ts";
import { memoryBuckets, redisBuckets } from "../platform/throttling/token-bucket.ts";

/** 4 per 60 s: a bucket of 4 that gains one token every 15 s. */
const LIMIT = 4;
const WINDOW_SECONDS = 60;

let clock = new Date("2030-01-01T00:00:10Z").getTime();
const { t, clients } = useSubscriptionApp({ rateLimitMutations: LIMIT, rateLimitWindowSeconds: WINDOW_SECONDS }, { now: () => new Date(clock) });

const THROTTLED = { detail: "Request was throttled. Expected available in 15 seconds." };

const comment = (token: string, uuid: string, text = "x") =>
  t.http("PATCH", `/api/marketplace-offering-users/${uuid}/update_comments/`, { token, body: { service_provider_comment: text } });
const graphql = async (token: string, query: string, variables: Record<string, unknown>) => {
  const response = await t.http("POST", "/graphql", { token, body: { query, variables } });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), errors: response.body.errors, data: response.body.data };
};
const COMMENT = `mutation($id: ID!) { updateOfferingUserComments(input: { id: $id, serviceProviderComment: "y" }) { ... on OfferingUser { uuid } } }`;
const commentOverGraphql = (token: string, uuid: string) => graphql(token, COMMENT, { id: globalId("OfferingUser", uuid) });
/** One document setting the comment `n` times under aliases a0…a(n-1), the last one winning. */
const aliasedComments = (n: number) =>
  `mutation($id: ID!) { ${Array.from({ length: n }, (_, i) => `a${i}: updateOfferingUserComments(input: { id: $id, serviceProviderComment: "alias ${i}" }) { ... on OfferingUser { uuid } }`).join(" ")} }`;
const commentOf = async (id: string) => (await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id } })).serviceProviderComment;

/** Lets every bucket fill up again. */
const refill = () => {
  clock += WINDOW_SECONDS * 1000;
};

describe("mutation rate limit", () => {
  it("REST writes and GraphQL mutations share one bucket per caller; beyond it 429 with Retry-After and DRF's body", async () => {
    refill();
    const ou = await t.world.offeringUser("OK");
    const token = t.world.tokens.providerOwner;
    expect((await comment(token, ou.uuid)).status).toBe(200);
    expect((await commentOverGraphql(token, ou.uuid)).data?.updateOfferingUserComments.uuid).toBe(ou.uuid);
    expect((await comment(token, ou.uuid)).status).toBe(200);
    expect((await commentOverGraphql(token, ou.uuid)).errors).toBeUndefined();

    const rest = await comment(token, ou.uuid);
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual(THROTTLED);
    expect(rest.headers.get("retry-after")).toBe("15");

    const overGraphql = await commentOverGraphql(token, ou.uuid);
    expect(overGraphql).toMatchObject({ status: 429, retryAfter: "15" });
    expect(overGraphql.errors).toEqual([{ message: THROTTLED.detail, extensions: { code: "RATE_LIMITED", retryAfter: 15 } }]);
    expect(overGraphql.data).toBeUndefined();
  });

  it("a throttled mutation changes nothing", async () => {
    refill();
    const ou = await t.world.offeringUser("CREATING");
    const token = t.world.tokens.providerOwner;
    for (let i = 0; i < LIMIT; i++) await comment(token, ou.uuid);
    const res = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/set_ok/`, { token });
    expect(res.status).toBe(429);
    expect((await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } })).state).toBe("CREATING");
  });

  it("reads are never limited, and another caller keeps a bucket of its own", async () => {
    refill();
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

  it("the bucket refills steadily: one mutation every 15 s once it is empty", async () => {
    refill();
    const ou = await t.world.offeringUser("OK");
    const token = t.world.tokens.providerOwner;
    for (let i = 0; i < LIMIT; i++) expect((await comment(token, ou.uuid)).status).toBe(200);
    clock += 14_000;
    const late = await comment(token, ou.uuid);
    expect(late.status).toBe(429);
    expect(late.headers.get("retry-after")).toBe("1");
    expect(late.body).toEqual({ detail: "Request was throttled. Expected available in 1 second." });
    clock += 1_000;
    expect((await comment(token, ou.uuid)).status).toBe(200);
    expect((await comment(token, ou.uuid)).headers.get("retry-after")).toBe("15");
  });

  it("each aliased root field costs one: a document that cannot be paid for is refused before any field runs", async () => {
    refill();
    const ou = await t.world.offeringUser("OK", { comment: "before" });
    const token = t.world.tokens.providerOwner;
    const three = await graphql(token, aliasedComments(3), { id: globalId("OfferingUser", ou.uuid) });
    expect(three.errors).toBeUndefined();
    expect(await commentOf(ou.id)).toBe("alias 2");

    await t.app.deps.db.offeringUser.update({ where: { id: ou.id }, data: { serviceProviderComment: "before" } });
    const two = await graphql(token, aliasedComments(2), { id: globalId("OfferingUser", ou.uuid) });
    expect(two).toMatchObject({ status: 429, retryAfter: "15", data: undefined });
    expect(two.errors?.[0].extensions.code).toBe("RATE_LIMITED");
    expect(await commentOf(ou.id)).toBe("before");
    expect((await comment(token, ou.uuid, "the last token")).status).toBe(200);
  });

  it("a document with more mutations than the bucket holds is a 400 that runs none of them, even with a full bucket", async () => {
    refill();
    const ou = await t.world.offeringUser("OK", { comment: "before" });
    const res = await graphql(t.world.tokens.providerOwner, aliasedComments(30), { id: globalId("OfferingUser", ou.uuid) });
    expect(res).toMatchObject({ status: 400, data: undefined });
    expect(res.errors).toEqual([
      { message: "This operation runs 30 mutations; at most 4 may run in one operation.", extensions: { code: "TOO_MANY_MUTATIONS" } },
    ]);
    expect(await commentOf(ou.id)).toBe("before");
    for (let i = 0; i < LIMIT; i++) expect((await comment(t.world.tokens.providerOwner, ou.uuid)).status).toBe(200);
  });

  it("mutations over graphql-ws draw on the same bucket", async () => {
    refill();
    const ou = await t.world.offeringUser("OK");
    const token = t.world.tokens.providerOwner;
    for (let i = 0; i < LIMIT; i++) await comment(token, ou.uuid);
    const feed = clients.subscribe(clients.open(token), COMMENT, { id: globalId("OfferingUser", ou.uuid) });
    const delivery = await feed.next();
    expect(delivery.errors?.[0]).toMatchObject({ message: THROTTLED.detail, extensions: { code: "RATE_LIMITED" } });
  });

  it("anonymous mutations (login attempts) are counted per client address", async () => {
    refill();
    const login = () => t.http("POST", "/api-auth/password/", { body: { username: "staff", password: "wrong" } });
    for (let i = 0; i < LIMIT; i++) expect((await login()).status).toBe(400);
    const throttled = await login();
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual(THROTTLED);
  });

  it("every REST write route runs a mutation and every read a query, so the one plugin sees all writes", () => {
    const kinds = REST_API.routes.map((route) => `${route.method === "GET" ? "read" : "write"} ${getOperationAST(parse(route.document))?.operation}`);
    expect(new Set(kinds)).toEqual(new Set(["read query", "write mutation"]));
    for (const route of REST_API.routes) expect(mutationFieldCount(parse(route.document)), `${route.method} ${route.path}`).toBe(route.method === "GET" ? 0 : 1);
  });
});

describe("mutationFieldCount", () => {
  const CASES: Array<[string, string, number]> = [
    ["a query", "{ a b c }", 0],
    ["a subscription", "subscription { a }", 0],
    ["one field", "mutation { a }", 1],
    ["aliases", "mutation { x: a y: a z: b }", 3],
    ["__typename is free", "mutation { __typename a }", 1],
    ["fragments and inline fragments", "mutation { ...F ... on Mutation { c d: a } } fragment F on Mutation { a b }", 4],
    ["a response key named twice runs once", "mutation { a ...F } fragment F on Mutation { a }", 1],
    ["the named operation", "query Q { a } mutation M { a b }", 2],
  ];
  for (const [name, document, count] of CASES) {
    it(`${name}: ${count}`, () => expect(mutationFieldCount(parse(document), name === "the named operation" ? "M" : undefined)).toBe(count));
  }
});

describe("settings", () => {
  it("default to 6,000 per 60 s, all of which may be spent at once; 0 switches the limit off; nonsense fails the start", () => {
    expect(loadRateLimitSettings({})).toMatchObject({ rateLimitMutations: 6000, rateLimitWindowSeconds: 60, rateLimitBurst: undefined });
    expect(mutationBucket(loadRateLimitSettings({}))).toEqual({ capacity: 6000, refillPerSecond: 100 });
    expect(mutationBucket(loadRateLimitSettings({ RATE_LIMIT_MUTATIONS: "120", RATE_LIMIT_BURST: "30" }))).toEqual({ capacity: 30, refillPerSecond: 2 });
    expect(mutationBucket(loadRateLimitSettings({ RATE_LIMIT_MUTATIONS: "0", RATE_LIMIT_WINDOW_SECONDS: "5" }))).toBeUndefined();
    expect(() => loadRateLimitSettings({ RATE_LIMIT_MUTATIONS: "-1" })).toThrow(/RATE_LIMIT_MUTATIONS/);
    expect(() => loadRateLimitSettings({ RATE_LIMIT_WINDOW_SECONDS: "0" })).toThrow(/RATE_LIMIT_WINDOW_SECONDS/);
    expect(() => loadRateLimitSettings({ RATE_LIMIT_BURST: "0" })).toThrow(/RATE_LIMIT_BURST/);
  });

  it("by default a site agent's sustained 100 writes a second for ten minutes are never refused", async () => {
    const limit = mutationBucket(loadRateLimitSettings({}))!;
    const buckets = memoryBuckets();
    const refused = [];
    for (let ms = 0; ms < 600_000; ms += 10) {
      if (!(await buckets.take("agent", limit, 1, ms)).taken) refused.push(ms);
    }
    expect(refused).toEqual([]);
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

describe("with the default settings", () => {
  it("2,000 writes from one token at one instant are none of them throttled", { timeout: 120_000 }, async () => {
    const { rateLimitMutations, rateLimitWindowSeconds, rateLimitBurst } = loadConfig({});
    const instant = new Date("2030-06-01T12:00:00Z");
    const app = await startTestApp({ rateLimitMutations, rateLimitWindowSeconds, rateLimitBurst }, { now: () => instant });
    try {
      const ou = await app.world.offeringUser("OK");
      const token = app.world.tokens.providerOwner;
      const write = (path: string, method: string, body: unknown) =>
        app.app.fetch(
          new Request(`http://localhost${path}`, {
            method,
            headers: { authorization: `Token ${token}`, "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        );
      // A cheap write: a provider owner may not create users, so each runs its mutation and is refused by the service.
      const createUser = () => write("/api/users/", "POST", { username: "not-allowed" });
      const statuses = new Map<number, number>();
      for (let batch = 0; batch < 100; batch++) {
        const responses = await Promise.all(Array.from({ length: 20 }, createUser));
        for (const { status } of responses) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ 403: 2000 });
      const real = await write(`/api/marketplace-offering-users/${ou.uuid}/update_comments/`, "PATCH", { service_provider_comment: "2,001st" });
      expect(real.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe("when Redis does not answer", () => {
  it("mutations run: counting fails open", async () => {
    const config = { ...loadConfig({}), rateLimitMutations: 1 };
    const buckets = redisBuckets("redis://127.0.0.1:1", "unreachable");
    const plugin = mutationRateLimit({ config, now: () => new Date(), buckets } as unknown as AppDeps);
    const stops: unknown[] = [];
    const execute = () =>
      plugin.onExecute!({
        args: { document: parse("mutation { obtainToken(input: { username: \"a\", password: \"b\" }) { ... on AuthToken { token } } }"), contextValue: { viewer: null, ipAddress: "192.0.2.1" } },
        setResultAndStopExecution: (result: unknown) => stops.push(result),
      } as never);
    for (let i = 0; i < 3; i++) await execute();
    expect(stops).toEqual([]);
    await buckets.close();
  });
});

describe.runIf(process.env.REDIS_URL)("on Redis", () => {
  it("two instances on one database share each caller's bucket", async () => {
    refill();
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
      expect(refused.headers.get("retry-after")).toBe("15");
      expect((await comment(token, ou.uuid)).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});
