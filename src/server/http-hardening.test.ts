import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { type App, createApp } from "../app.ts";
import { loadGraphqlSettings } from "../platform/settings/graphql-settings.ts";
import { upgradeAllowed } from "./cors.ts";
import { allowedHostsOnly, domainOf, hostAllowed } from "./hosts.ts";
import { LOOPBACK_HOSTS, loadSecuritySettings } from "../platform/settings/security-settings.ts";

const MAX_BODY_BYTES = 64 * 1024;
const METRICS_TOKEN = "scrape-me";
const logLines: Array<{ level: number; msg: string }> = [];
const capture = { write: (line: string) => void logLines.push(JSON.parse(line)) };

let t: TestApp;
/** NODE_ENV=production defaults over the same database: without METRICS_TOKEN, and with it. */
let production: App;
let productionWithMetrics: App;
beforeAll(async () => {
  t = await startTestApp({ maxBodyBytes: MAX_BODY_BYTES });
  const productionConfig = { ...t.app.deps.config, ...loadGraphqlSettings({ NODE_ENV: "production" }), ...loadSecuritySettings({ NODE_ENV: "production" }) };
  production = await createApp({ database: t.app.database, config: { ...productionConfig, logLevel: "warn" }, logDestination: capture });
  productionWithMetrics = await createApp({ database: t.app.database, config: { ...productionConfig, metricsToken: METRICS_TOKEN } });
});
afterAll(async () => {
  await Promise.all([production.close(), productionWithMetrics.close()]);
  await t.close();
});

const get = (app: Pick<App, "fetch">, url: string, headers: Record<string, string> = {}) => app.fetch(new Request(url, { headers }));
const staff = () => ({ authorization: `Token ${t.world.tokens.staff}` });

describe("ALLOWED_HOSTS", () => {
  it("matches as Django does: exact, a leading dot for a domain and its subdomains, * for any; ports ignored", () => {
    expect(domainOf("API.Example.org:8443")).toBe("api.example.org");
    expect(domainOf("[::1]:8000")).toBe("[::1]");
    expect(domainOf("example.org.")).toBe("example.org");
    const patterns = [".example.org", "gw.example.net"];
    for (const host of ["example.org", "api.example.org:8000", "a.b.example.org", "GW.example.net"]) expect(hostAllowed(patterns, host)).toBe(true);
    for (const host of ["badexample.org", "example.org.evil.net", "example.net", "x.gw.example.net", "", undefined]) expect(hostAllowed(patterns, host)).toBe(false);
    expect(hostAllowed(["*"], "anything.invalid")).toBe(true);
  });

  it("defaults to the machine itself (and PUBLIC_URL's host), in production to PUBLIC_URL's host alone", () => {
    expect(loadSecuritySettings({}).allowedHosts).toEqual(LOOPBACK_HOSTS);
    expect(loadSecuritySettings({ PUBLIC_URL: "https://gw.example.org/" }).allowedHosts).toEqual([...LOOPBACK_HOSTS, "gw.example.org"]);
    expect(loadSecuritySettings({ ALLOWED_HOSTS: "*" }).allowedHosts).toEqual(["*"]);
    expect(loadSecuritySettings({ NODE_ENV: "production" }).allowedHosts).toEqual(LOOPBACK_HOSTS);
    expect(loadSecuritySettings({ NODE_ENV: "production", PUBLIC_URL: "https://gw.example.org/" }).allowedHosts).toEqual(["gw.example.org"]);
    expect(loadSecuritySettings({ NODE_ENV: "production", ALLOWED_HOSTS: " GW.example.org, .example.net " }).allowedHosts).toEqual(["gw.example.org", ".example.net"]);
    expect(loadSecuritySettings({ ALLOWED_HOSTS: "gw.example.org" }).allowedHosts).toEqual(["gw.example.org"]);
  });

  it("in production, answers a forged Host with 400 before any URL is built from it; probes and scrapes pass", async () => {
    const forged = await get(production, "http://evil.example/api/users/?page_size=1", staff());
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ detail: "Invalid host header." });
    expect(forged.headers.get("link")).toBeNull();
    expect((await get(production, "http://localhost:8000/api/users/me/", staff())).status).toBe(200);
    expect((await get(production, "http://127.0.0.1/api/users/me/", staff())).status).toBe(200);
    expect((await get(production, "http://evil.example/health")).status).toBe(200);
  });

  it("in development too, a forged Host gets 400 from REST and GraphQL, and no URL is written for it", async () => {
    const forged = await get(t.app, "http://evil.example/api/marketplace-offering-users/?page_size=1", staff());
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ detail: "Invalid host header." });
    const query = JSON.stringify({ query: "{ offeringUsers(first: 1) { nodes { uuid } } }" });
    const graphql = await t.app.fetch(
      new Request("http://evil.example:8000/graphql", { method: "POST", headers: { ...staff(), "content-type": "application/json" }, body: query }),
    );
    expect(graphql.status).toBe(400);
    expect(await graphql.text()).not.toContain("evil.example");
    for (const host of ["http://localhost:8000", "http://127.0.0.1", "http://[::1]:8000", "http://api.localhost"]) {
      const res = await get(t.app, `${host}/api/users/?page_size=1`, staff());
      expect([host, res.status]).toEqual([host, 200]);
      expect(JSON.stringify(await res.json())).toContain(`"url":"${host}/api/users/`);
    }
  });

  it("the middleware serves listed hosts only, and WebSocket upgrades obey the same list", async () => {
    const app = new Hono().use("*", allowedHostsOnly([".example.org"])).get("/x", (c) => c.text("ok"));
    expect((await app.fetch(new Request("http://api.example.org/x"))).status).toBe(200);
    expect((await app.fetch(new Request("http://example.com/x"))).status).toBe(400);
    const policy = { corsOrigins: [], allowedHosts: LOOPBACK_HOSTS };
    expect(upgradeAllowed(policy, { host: "evil.example" })).toBe(false);
    expect(upgradeAllowed(policy, { host: "127.0.0.1:8000" })).toBe(true);
  });
});

describe("security headers", () => {
  const expectBaseline = (res: Response) => {
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  };

  it("Swagger UI: its own scripts only", async () => {
    const res = await get(t.app, "http://127.0.0.1/api/docs/");
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expectBaseline(res);
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'self'; script-src 'self';/);
    expect(await res.text()).not.toMatch(/<script>|https?:\/\//);
  });

  it("GraphiQL: no framing", async () => {
    const res = await get(t.app, "http://127.0.0.1/graphql", { accept: "text/html" });
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expectBaseline(res);
  });

  it("JSON from REST and GraphQL, and errors: nosniff and a policy that loads nothing", async () => {
    const responses = [
      await get(t.app, "http://127.0.0.1/api/users/me/", staff()),
      await get(t.app, "http://127.0.0.1/api/nowhere/"),
      await t.app.fetch(new Request("http://127.0.0.1/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{ __typename }"}' })),
    ];
    for (const res of responses) {
      expectBaseline(res);
      expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
    }
  });
});

describe("/metrics in production", () => {
  it("is off (404) without METRICS_TOKEN, and says so at start-up", async () => {
    expect((await get(production, "http://127.0.0.1/metrics")).status).toBe(404);
    expect(logLines.some((l) => /GET \/metrics is off .*METRICS_TOKEN/.test(l.msg))).toBe(true);
  });

  it("needs the token when METRICS_TOKEN is set", async () => {
    expect((await get(productionWithMetrics, "http://127.0.0.1/metrics")).status).toBe(401);
    expect((await get(productionWithMetrics, "http://127.0.0.1/metrics", { authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
  });

  it("stays open in development", async () => {
    expect((await get(t.app, "http://127.0.0.1/metrics")).status).toBe(200);
  });
});

describe("MAX_BODY_BYTES on /graphql and graphql-ws", () => {
  const body = (bytes: number) => JSON.stringify({ query: "{ __typename }", variables: { padding: "x".repeat(bytes) } });

  it("answers a /graphql body over the limit with REST's 413, with or without Content-Length", async () => {
    const declared = await t.http("POST", "/graphql", { raw: body(MAX_BODY_BYTES), headers: { "content-type": "application/json" } });
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({ detail: "Request body is too large." });
    const rest = await t.http("POST", "/api/projects/", { raw: body(MAX_BODY_BYTES), token: t.world.tokens.staff, headers: { "content-type": "application/json" } });
    expect(rest.status).toBe(413);
    expect(rest.body).toEqual(declared.body);

    const chunks = [body(MAX_BODY_BYTES / 2), " ".repeat(MAX_BODY_BYTES)].map((text) => new TextEncoder().encode(text));
    const stream = new ReadableStream<Uint8Array>({ pull: (controller) => (chunks.length ? controller.enqueue(chunks.shift()!) : controller.close()) });
    const chunked = await fetch(`${t.baseUrl}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ detail: "Request body is too large." });

    const within = await t.http("POST", "/graphql", { raw: body(MAX_BODY_BYTES / 2), headers: { "content-type": "application/json" } });
    expect(within.body).toEqual({ data: { __typename: "Query" } });
  });

  it("answers a chunked REST body over the limit with 413, and reads one within it", async () => {
    const chunked = (texts: string[]) => {
      const chunks = texts.map((text) => new TextEncoder().encode(text));
      const stream = new ReadableStream<Uint8Array>({ pull: (controller) => (chunks.length ? controller.enqueue(chunks.shift()!) : controller.close()) });
      const headers = { "content-type": "application/json", authorization: `Token ${t.world.tokens.staff}` };
      return fetch(`${t.baseUrl}/api/projects/`, { method: "POST", headers, body: stream, duplex: "half" } as RequestInit);
    };
    const over = await chunked([body(MAX_BODY_BYTES / 2), " ".repeat(MAX_BODY_BYTES)]);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ detail: "Request body is too large." });
    const within = await chunked(['{"name": "Chunked", ', `"customer": "${t.baseUrl}/api/customers/${t.world.consumer.uuid}/"}`]);
    expect(within.status).toBe(201);
    expect((await within.json()).name).toBe("Chunked");
  });

  it("closes a WebSocket that sends a message over the limit with 1009", async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${t.port}/graphql`, "graphql-transport-ws");
    await new Promise((resolve) => socket.once("open", resolve));
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Token ${t.world.tokens.staff}`, padding: "x".repeat(MAX_BODY_BYTES) } }));
    expect(await closed).toBe(1009);
  });
});
