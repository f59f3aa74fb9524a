import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { requestContext } from "../server/yoga.ts";

interface LogLine {
  level: string;
  msg: string;
  requestId?: string;
  method?: string;
  path?: string;
  route?: string;
  status?: number;
  durationMs?: number;
  operation?: string;
  err?: { message: string; stack: string };
  [key: string]: unknown;
}

const lines: LogLine[] = [];
const capture = { write: (line: string) => void lines.push(JSON.parse(line)) };
const requestLine = (requestId: string | null) => lines.find((l) => l.msg === "request" && l.requestId === requestId);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logLevel: "info" }, { logDestination: capture });
  const { deps, hono } = t.app;
  hono.get("/test/context-request-id", async (c) => c.json({ requestId: (await requestContext(deps, c.req.raw)).requestId }));
  hono.get("/test/failure", () => {
    throw new Error("disk on fire");
  });
});
afterAll(async () => {
  await t?.close();
});

describe("request ids", () => {
  it("echoes a sane X-Request-ID on a REST response and logs one line with it", async () => {
    const res = await t.socketHttp("GET", "/api/users/me", { token: t.world.tokens.staff, headers: { "X-Request-ID": "client-req.42" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("client-req.42");
    expect(lines.filter((l) => l.requestId === "client-req.42")).toEqual([
      expect.objectContaining({
        level: "info",
        msg: "request",
        method: "GET",
        path: "/api/users/me",
        route: "/api/users/me/",
        status: 200,
        durationMs: expect.any(Number),
        operation: "me",
      }),
    ]);
  });

  it("generates an id when the client sends none or an insane one, and logs that id", async () => {
    const variants: Array<Record<string, string>> = [{}, { "X-Request-ID": "has spaces and\ttabs" }, { "X-Request-ID": "x".repeat(200) }];
    for (const headers of variants) {
      const res = await t.socketHttp("GET", "/api/users/me/", { token: t.world.tokens.staff, headers });
      const id = res.headers.get("x-request-id");
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(requestLine(id)).toMatchObject({ status: 200, route: "/api/users/me/" });
    }
  });

  it("hands the same id to the request's context, generated or not", async () => {
    const sent = await t.socketHttp("GET", "/test/context-request-id", { headers: { "X-Request-ID": "abc-123" } });
    expect(sent.body).toEqual({ requestId: "abc-123" });
    const generated = await t.socketHttp("GET", "/test/context-request-id");
    expect(generated.body).toEqual({ requestId: generated.headers.get("x-request-id") });
  });

  it("echoes it on GraphQL, health, metrics and 404 responses too", async () => {
    const gql = await t.socketHttp("POST", "/graphql", {
      token: t.world.tokens.staff,
      headers: { "X-Request-ID": "gql-1" },
      body: { query: "query WhoAmI { me { username } }", operationName: "WhoAmI" },
    });
    expect(gql.body).toEqual({ data: { me: { username: "staff" } } });
    expect(gql.headers.get("x-request-id")).toBe("gql-1");
    expect(requestLine("gql-1")).toMatchObject({ level: "info", method: "POST", route: "/graphql", status: 200, operation: "WhoAmI" });

    for (const path of ["/health", "/health/ready", "/metrics", "/no/such/path"]) {
      const res = await t.socketHttp("GET", path, { headers: { "X-Request-ID": `probe${path.replaceAll("/", "-")}` } });
      expect(res.headers.get("x-request-id")).toBe(`probe${path.replaceAll("/", "-")}`);
    }
    expect(requestLine("probe-no-such-path")).toMatchObject({ level: "info", status: 404, route: "unmatched" });
  });

  it("logs probes at debug level, so they stay out of an info log", () => {
    expect(requestLine("probe-health")).toBeUndefined();
    expect(requestLine("probe-metrics")).toBeUndefined();
  });
});

describe("errors", () => {
  it("answers a generic 500 and keeps the stack in the request's log line", async () => {
    const res = await t.socketHttp("GET", "/test/failure", { headers: { "X-Request-ID": "boom-1" } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: "Internal server error." });
    expect(res.text).not.toContain("disk on fire");
    expect(res.headers.get("x-request-id")).toBe("boom-1");
    const line = requestLine("boom-1")!;
    expect(line).toMatchObject({ level: "error", status: 500, err: { message: "disk on fire" } });
    expect(line.err!.stack).toMatch(/disk on fire\n\s+at /);
  });

  it("masks a failing resolver in GraphQL and REST responses and logs the thrown error with its stack", async () => {
    const sql = t.app.database.sql;
    await sql.exec(`ALTER TABLE "admin_announcements" RENAME TO "admin_announcements_away"`);
    try {
      const gql = await t.socketHttp("POST", "/graphql", {
        token: t.world.tokens.staff,
        headers: { "X-Request-ID": "broken-gql" },
        body: { query: "query Announcements { adminAnnouncements { totalCount } }" },
      });
      expect(gql.status).toBe(200);
      expect(gql.body.errors).toEqual([expect.objectContaining({ message: "Unexpected error." })]);
      expect(gql.text).not.toMatch(/admin_announcements|\bat /);
      expect(requestLine("broken-gql")).toMatchObject({ level: "error", status: 200, operation: "Announcements" });
      expect(requestLine("broken-gql")!.err!.stack).toMatch(/\n\s+at /);

      const rest = await t.socketHttp("GET", "/api/admin-announcements/", { token: t.world.tokens.staff, headers: { "X-Request-ID": "broken-rest" } });
      expect(rest.status).toBe(500);
      expect(rest.body).toEqual({ detail: "Internal server error." });
      expect(requestLine("broken-rest")).toMatchObject({ level: "error", status: 500, route: "/api/admin-announcements/" });
      expect(requestLine("broken-rest")!.err!.stack).toMatch(/\n\s+at /);
    } finally {
      await sql.exec(`ALTER TABLE "admin_announcements_away" RENAME TO "admin_announcements"`);
    }
  });

  it("logs a refused request (401) as an ordinary one, without a stack", async () => {
    const res = await t.socketHttp("GET", "/api/users/me/", { headers: { "X-Request-ID": "anon-1" } });
    expect(res.status).toBe(401);
    expect(requestLine("anon-1")).toMatchObject({ level: "info", status: 401 });
    expect(requestLine("anon-1")!.err).toBeUndefined();
  });
});
