import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf } from "../../test/support/graphql-failures.ts";
import { loadRateLimitSettings } from "../platform/throttling/rate-limit.ts";
import { memoryBuckets } from "../platform/throttling/token-bucket.ts";
import { loginFailureBucket } from "./login-throttle.ts";

let clock = new Date("2030-01-01T00:00:00Z").getTime();
let t: TestApp;
beforeAll(async () => {
  // Default login throttle: 10 failures per username, one back every 30 s. No forwarding header is trusted.
  t = await startTestApp({}, { now: () => new Date(clock) });
});
afterAll(() => t.close());

const CREDENTIALS_REFUSED = { non_field_errors: ["Unable to log in with provided credentials."] };

let counter = 0;
const fresh = (prefix: string) => `${prefix}-${++counter}`;

async function userWithPassword(username: string, password: string) {
  const res = await t.http("POST", "/api/users/", { token: t.world.tokens.staff, body: { username, password } });
  expect(res.status).toBe(201);
}

/** A login from a new forged address each time. */
const login = (username: string, password: string, i = 0) =>
  t.http("POST", "/api-auth/password/", { body: { username, password }, headers: { "x-forwarded-for": `198.51.100.${i % 250}` } });

describe("per-username login throttle", () => {
  it("30 guesses from changing addresses: 10 are checked, the rest get 429 with Retry-After; so does the right password", async () => {
    const username = fresh("victim");
    await userWithPassword(username, "the-right-one");
    const statuses = [];
    for (let i = 0; i < 30; i++) statuses.push((await login(username, `guess ${i}`, i)).status);
    expect(statuses).toEqual([...Array(10).fill(400), ...Array(20).fill(429)]);

    const locked = await login(username, "the-right-one", 99);
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("30");
    expect(locked.body).toEqual({ detail: "Request was throttled. Expected available in 30 seconds." });

    clock += 29_000;
    expect((await login(username, "the-right-one")).headers.get("retry-after")).toBe("1");
    clock += 1_000;
    const after = await login(username, "the-right-one");
    expect(after.status).toBe(200);
    expect(after.body.token).toMatch(/^[0-9a-f]{40}$/);
  });

  it("the same holds over GraphQL", async () => {
    const username = fresh("graphql-victim");
    await userWithPassword(username, "pw-right");
    const obtain = (password: string) =>
      t.http("POST", "/graphql", {
        body: { query: `mutation($u: String!, $p: String!) { obtainToken(input: { username: $u, password: $p }) { ... on AuthToken { token } ${failuresOf("obtainToken")} } }`, variables: { u: username, p: password } },
      });
    for (let i = 0; i < 10; i++) expect((await obtain("wrong")).body.data.obtainToken).toMatchObject({ __typename: "AuthenticationError", code: "VALIDATION" });
    const refused = await obtain("pw-right");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(refused.body.errors[0].extensions).toMatchObject({ code: "RATE_LIMITED", retryAfter: 30 });
  });

  it("successful logins do not count", async () => {
    const username = fresh("regular");
    await userWithPassword(username, "pw");
    for (let i = 0; i < 25; i++) expect((await login(username, "pw")).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await login(username, "wrong")).status).toBe(400);
    expect((await login(username, "wrong")).status).toBe(429);
  });

  it("unknown usernames are throttled alike (the answer does not tell which exist), and each username separately", async () => {
    const unknown = fresh("nobody");
    for (let i = 0; i < 10; i++) expect((await login(unknown, "x", i)).body).toEqual(CREDENTIALS_REFUSED);
    expect((await login(unknown, "x")).status).toBe(429);
    const other = fresh("bystander");
    await userWithPassword(other, "mine");
    expect((await login(other, "mine")).status).toBe(200);
  });

  it("settings: 10 per 300 s by default; 0 switches the throttle off; nonsense fails the start", () => {
    expect(loginFailureBucket(loadRateLimitSettings({}))).toEqual({ capacity: 10, refillPerSecond: 10 / 300 });
    expect(loginFailureBucket(loadRateLimitSettings({ LOGIN_FAILURES_PER_USERNAME: "5", LOGIN_FAILURE_WINDOW_SECONDS: "60" }))).toEqual({
      capacity: 5,
      refillPerSecond: 5 / 60,
    });
    expect(loginFailureBucket(loadRateLimitSettings({ LOGIN_FAILURES_PER_USERNAME: "0" }))).toBeUndefined();
    expect(() => loadRateLimitSettings({ LOGIN_FAILURES_PER_USERNAME: "-1" })).toThrow(/LOGIN_FAILURES_PER_USERNAME/);
    expect(() => loadRateLimitSettings({ LOGIN_FAILURE_WINDOW_SECONDS: "0" })).toThrow(/LOGIN_FAILURE_WINDOW_SECONDS/);
  });

  it("concurrent guesses cannot all pass one check: tokens are taken before the password is verified", async () => {
    const buckets = memoryBuckets();
    const limit = loginFailureBucket(loadRateLimitSettings({}))!;
    const draws = await Promise.all(Array.from({ length: 50 }, () => buckets.take("k", limit, 1, 0)));
    expect(draws.filter((d) => d.taken)).toHaveLength(10);
  });

  it("with the throttle off, guesses are only refused as wrong", async () => {
    const open = await startTestApp({ loginFailuresPerUsername: 0 });
    try {
      const statuses = new Set();
      for (let i = 0; i < 15; i++) {
        statuses.add((await open.http("POST", "/api-auth/password/", { body: { username: "someone", password: `g${i}` } })).status);
      }
      expect(statuses).toEqual(new Set([400]));
    } finally {
      await open.close();
    }
  });
});

describe("login timing does not tell which usernames exist", () => {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  /** CPU time of this process (the server runs in it; scrypt's thread pool included), which other processes' load does not inflate. */
  async function cpuMs(attempt: () => Promise<{ status: number }>) {
    const before = process.cpuUsage();
    expect((await attempt()).status).toBe(400);
    const { user, system } = process.cpuUsage(before);
    return (user + system) / 1000;
  }

  it("an unknown user, a user without a password and an inactive user cost as much as a wrong password", async () => {
    const known = fresh("known");
    await userWithPassword(known, "known-pw");
    const inactive = fresh("inactive");
    await userWithPassword(inactive, "inactive-pw");
    await t.app.deps.db.user.update({ where: { username: inactive }, data: { isActive: false } });

    const attempts = {
      wrongPassword: () => login(known, "wrong"),
      unknownUser: () => login(fresh("ghost"), "wrong"),
      noPassword: () => login("projectMember", "wrong"),
      inactiveUser: () => login(inactive, "inactive-pw"),
    };
    const costs: Record<keyof typeof attempts, number[]> = { wrongPassword: [], unknownUser: [], noPassword: [], inactiveUser: [] };
    // Interleaved, so that whatever else the machine does weighs on every kind alike.
    for (let i = 0; i < 7; i++) {
      for (const [kind, attempt] of Object.entries(attempts)) costs[kind as keyof typeof attempts].push(await cpuMs(attempt));
    }
    const reference = median(costs.wrongPassword);
    for (const kind of ["unknownUser", "noPassword", "inactiveUser"] as const) {
      expect(median(costs[kind]), `${kind} vs a wrong password (${reference} ms)`).toBeGreaterThanOrEqual(reference * 0.5);
    }
  });
});
