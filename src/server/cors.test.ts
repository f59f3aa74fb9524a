import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { type App, createApp } from "../app.ts";
import { loadSecuritySettings } from "../platform/settings/security-settings.ts";

const ALLOWED = "https://app.example.org";
const FOREIGN = "https://evil.example.net";
const JSON_BODY = { "content-type": "application/json" };
const ME = JSON.stringify({ query: "{ me { username } }" });

let t: TestApp;
/** The same service over the same database, with CORS_ORIGINS=* and then with nothing configured (the default). */
let anyOrigin: App;
let sameOriginOnly: App;
beforeAll(async () => {
  t = await startTestApp({ corsOrigins: [ALLOWED] });
  const variant = (corsOrigins: string[]) => createApp({ database: t.app.database, config: { ...t.app.deps.config, corsOrigins } });
  [anyOrigin, sameOriginOnly] = await Promise.all([variant(["*"]), variant([])]);
});
afterAll(async () => {
  await Promise.all([anyOrigin.close(), sameOriginOnly.close()]);
  await t.close();
});

const preflight = (app: Pick<App, "fetch">, path: string, origin: string, method = "POST") =>
  app.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": method, "access-control-request-headers": "authorization, content-type" },
    }),
  );

const graphql = (app: Pick<App, "fetch">, origin: string, accept = "application/json") =>
  app.fetch(new Request("http://127.0.0.1/graphql", { method: "POST", headers: { ...JSON_BODY, accept, origin, authorization: `Token ${t.world.tokens.staff}` }, body: ME }));

const rest = (app: Pick<App, "fetch">, origin: string) =>
  app.fetch(new Request("http://127.0.0.1/api/users/me/", { headers: { origin, authorization: `Token ${t.world.tokens.staff}` } }));

/** The response headers of an SSE subscription over a real socket (aborted once they are in). */
async function sseHeaders(origin: string): Promise<Headers> {
  const abort = new AbortController();
  const res = await fetch(`${t.baseUrl}/graphql`, {
    method: "POST",
    headers: { ...JSON_BODY, accept: "text/event-stream", origin },
    body: JSON.stringify({ query: "subscription { publicMaintenanceChanged { uuid } }" }),
    signal: abort.signal,
  });
  abort.abort();
  return res.headers;
}

describe("CORS_ORIGINS", () => {
  it("reads a list of exact origins, or *, and refuses anything else", () => {
    expect(loadSecuritySettings({}).corsOrigins).toEqual([]);
    expect(loadSecuritySettings({ CORS_ORIGINS: ` ${ALLOWED}, http://localhost:3000 ` }).corsOrigins).toEqual([ALLOWED, "http://localhost:3000"]);
    expect(loadSecuritySettings({ CORS_ORIGINS: "*" }).corsOrigins).toEqual(["*"]);
    for (const wrong of [`${ALLOWED}/`, "app.example.org", `${ALLOWED}/path`, `*,${ALLOWED}`]) {
      expect(() => loadSecuritySettings({ CORS_ORIGINS: wrong })).toThrow(/CORS_ORIGINS/);
    }
  });

  it("lets a listed origin read REST and GraphQL responses, without credentials", async () => {
    for (const res of [await rest(t.app, ALLOWED), await graphql(t.app, ALLOWED)]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
      expect(res.headers.get("access-control-expose-headers")).toMatch(/Link, X-Result-Count/);
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("vary")).toMatch(/Origin/);
    }
  });

  it("answers a listed origin's REST and GraphQL preflights with 204 before authentication", async () => {
    for (const path of ["/api/marketplace-orders/", "/api/users/me/", "/graphql"]) {
      const res = await preflight(t.app, path, ALLOWED);
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
      expect(res.headers.get("access-control-allow-methods")).toMatch(/POST/);
      expect(res.headers.get("access-control-allow-headers")).toMatch(/authorization.*content-type/);
    }
  });

  it("gives any other origin no CORS headers: REST, GraphQL, SSE and preflights", async () => {
    const responses = [
      await rest(t.app, FOREIGN),
      await graphql(t.app, FOREIGN),
      await graphql(sameOriginOnly, FOREIGN),
      await preflight(t.app, "/api/marketplace-orders/", FOREIGN),
      await preflight(sameOriginOnly, "/graphql", FOREIGN),
    ];
    for (const res of responses) {
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("access-control-allow-methods")).toBeNull();
    }
    const stream = await sseHeaders(FOREIGN);
    expect(stream.get("content-type")).toMatch(/text\/event-stream/);
    expect(stream.get("access-control-allow-origin")).toBeNull();
  });

  it("lets a listed origin follow an SSE subscription", async () => {
    const stream = await sseHeaders(ALLOWED);
    expect(stream.get("content-type")).toMatch(/text\/event-stream/);
    expect(stream.get("access-control-allow-origin")).toBe(ALLOWED);
  });

  it("answers every origin with * when CORS_ORIGINS=*, never with credentials", async () => {
    for (const res of [await rest(anyOrigin, FOREIGN), await graphql(anyOrigin, FOREIGN), await preflight(anyOrigin, "/api/users/me/", FOREIGN, "GET")]) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });
});

describe("WebSocket upgrades", () => {
  /** Resolves with "open" or the HTTP status the upgrade was refused with. */
  const upgrade = (origin?: string) =>
    new Promise<number | "open">((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${t.port}/graphql`, "graphql-transport-ws", origin ? { origin } : {});
      socket.once("open", () => (socket.close(), resolve("open")));
      socket.once("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      socket.once("error", () => undefined);
    });

  it("refuses a page from a foreign origin (403), accepts the API's own origin, a listed one and non-browser clients", async () => {
    expect(await upgrade(FOREIGN)).toBe(403);
    expect(await upgrade("null")).toBe(403);
    expect(await upgrade(`http://127.0.0.1:${t.port}`)).toBe("open");
    expect(await upgrade(ALLOWED)).toBe("open");
    expect(await upgrade()).toBe("open");
  });
});
