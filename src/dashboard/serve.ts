import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Context, Hono } from "hono";

/**
 * The live operations dashboard: static ES modules and CSS from src/dashboard/pages/, built only on the public GraphQL
 * API, plus graphql-ws's browser client from its npm package under /dashboard/vendor/. No build step, no CDN.
 */
export const DASHBOARD = "/dashboard/";
export const DASHBOARD_VENDOR = `${DASHBOARD}vendor/graphql-ws/`;

const PAGES_DIRECTORY = new URL("./pages/", import.meta.url);

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

interface StaticFile {
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
  gzipped: Uint8Array<ArrayBuffer>;
  etag: string;
}

function staticFile(name: string, body: Buffer): StaticFile {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
  return { contentType: CONTENT_TYPES[extname(name)], body: new Uint8Array(body), gzipped: new Uint8Array(gzipSync(body)), etag };
}

const require = createRequire(import.meta.url);

/** graphql-ws's ESM client and the chunks it imports (`./common-<hash>.js`), by file name. */
function graphqlWsClientFiles(): Array<[name: string, body: Buffer]> {
  const directory = join(dirname(require.resolve("graphql-ws/package.json")), "dist");
  const files = new Map<string, Buffer>();
  const pending = ["client.js"];
  for (let name = pending.pop(); name; name = pending.pop()) {
    if (files.has(name)) continue;
    const body = readFileSync(join(directory, name));
    files.set(name, body);
    for (const [, imported] of body.toString("utf8").matchAll(/\bfrom\s*['"]\.\/([\w.-]+\.js)['"]/g)) pending.push(imported);
  }
  return [...files];
}

let loaded: Map<string, StaticFile> | undefined;
/** Every file by its URL path, read and gzipped once per process on the first request. */
function files(): Map<string, StaticFile> {
  if (loaded) return loaded;
  const byPath = new Map<string, StaticFile>();
  for (const name of readdirSync(PAGES_DIRECTORY)) {
    if (!(extname(name) in CONTENT_TYPES)) continue;
    byPath.set(`${DASHBOARD}${name}`, staticFile(name, readFileSync(new URL(name, PAGES_DIRECTORY))));
  }
  for (const [name, body] of graphqlWsClientFiles()) byPath.set(`${DASHBOARD_VENDOR}${name}`, staticFile(name, body));
  const index = byPath.get(`${DASHBOARD}index.html`);
  if (index) byPath.set(DASHBOARD, index);
  loaded = byPath;
  return byPath;
}

/**
 * The page's own files and the page's origin over HTTP and graphql-ws, nothing else. `'self'` covers ws: and wss: only
 * in CSP Level 3 browsers, so the socket's origin is named too.
 */
export function dashboardPolicy(host: string) {
  const socket = `ws://${host} wss://${host}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    `connect-src 'self' ${socket}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join("; ");
}

function serve(c: Context, found: StaticFile) {
  // Revalidated on every load (a cheap 304): the file names carry no content hash, and a stale app.js would talk to a
  // changed API.
  const headers: Record<string, string> = { "Cache-Control": "no-cache", ETag: found.etag, Vary: "Accept-Encoding" };
  if (found.contentType.startsWith("text/html")) headers["Content-Security-Policy"] = dashboardPolicy(new URL(c.req.url).host);
  if (c.req.header("if-none-match")?.split(/\s*,\s*/).includes(found.etag)) return c.body(null, 304, headers);
  const gzip = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
  headers["Content-Type"] = found.contentType;
  if (gzip) headers["Content-Encoding"] = "gzip";
  return c.body(gzip ? found.gzipped : found.body, 200, headers);
}

/** GET /dashboard/ and its files. */
export function mountDashboard(hono: Hono) {
  hono.get(DASHBOARD.slice(0, -1), (c) => c.redirect(DASHBOARD, 301));
  hono.get(`${DASHBOARD}*`, (c) => {
    const found = files().get(c.req.path);
    return found ? serve(c, found) : c.notFound();
  });
}
