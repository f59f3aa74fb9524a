import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

const PAGE = { headers: { accept: "text/html" } };
const graphqlWsDist = join(dirname(createRequire(import.meta.url).resolve("graphql-ws/package.json")), "dist");

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe("GET /dashboard/", () => {
  it("serves the page under a policy that allows only the gateway's own files, HTTP and WebSocket", async () => {
    const res = await t.http("GET", "/dashboard/", PAGE);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.text).toContain('<script type="module" src="app.js"></script>');
    expect(res.text).not.toMatch(/https?:\/\/|<script>|style="/);
    const csp = res.headers.get("content-security-policy") ?? "";
    const host = new URL(t.baseUrl).host;
    expect(csp.split("; ")).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        `connect-src 'self' ws://${host} wss://${host}`,
        "frame-ancestors 'none'",
        "form-action 'none'",
      ]),
    );
    expect(csp).not.toMatch(/unsafe|data:|blob:|\*/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
  });

  it("sends /dashboard to /dashboard/, so the page's relative URLs resolve", async () => {
    const res = await t.http("GET", "/dashboard");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/dashboard/");
  });

  it("serves every module the page imports, and graphql-ws's browser client with the chunk it imports", async () => {
    const app = await t.http("GET", "/dashboard/app.js");
    expect(app.status).toBe(200);
    expect(app.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const imports = (source: string) => [...source.matchAll(/\bfrom\s*["'](\.\/[^"']+)["']/g)].map(([, path]) => path);
    const seen = new Set<string>();
    const pending = imports(app.text).map((path) => new URL(path, `${t.baseUrl}/dashboard/`).pathname);
    for (let path = pending.pop(); path; path = pending.pop()) {
      if (seen.has(path)) continue;
      seen.add(path);
      const res = await t.http("GET", path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toBe("text/javascript; charset=utf-8");
      pending.push(...imports(res.text).map((next) => new URL(next, `${t.baseUrl}${path}`).pathname));
    }
    const vendor = [...seen].filter((path) => path.startsWith("/dashboard/vendor/graphql-ws/")).sort();
    expect(vendor).toEqual(["/dashboard/vendor/graphql-ws/client.js", expect.stringMatching(/^\/dashboard\/vendor\/graphql-ws\/common-[\w-]+\.js$/)]);
    const client = await t.http("GET", "/dashboard/vendor/graphql-ws/client.js");
    expect(client.text).toBe(readFileSync(join(graphqlWsDist, "client.js"), "utf8"));
    expect(client.text).toContain("function createClient(");
  });

  it("answers 304 to a matching ETag and gzips for clients that take it", async () => {
    const first = await t.http("GET", "/dashboard/style.css");
    expect(first.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await t.http("GET", "/dashboard/style.css", { headers: { "if-none-match": etag } })).status).toBe(304);
    const gzipped = await t.app.fetch(new Request(`${t.baseUrl}/dashboard/style.css`, { headers: { "accept-encoding": "gzip" } }));
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString("utf8")).toBe(first.text);
  });

  it("has nothing else under /dashboard/ (no file outside its folder)", async () => {
    for (const path of ["/dashboard/missing.js", "/dashboard/../app.ts", "/dashboard/vendor/graphql-ws/server-zBhvXJ_Z.js", "/dashboard/%2e%2e/dashboard.ts"]) {
      expect((await t.http("GET", path)).status, path).toBe(404);
    }
  });
});
