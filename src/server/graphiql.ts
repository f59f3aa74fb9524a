import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { GraphiQLOptions } from "graphql-yoga";
import type { Hono } from "hono";

/**
 * GraphiQL served by the gateway itself: yoga's built GraphiQL (@graphql-yoga/render-graphiql, the version of yoga),
 * graphql-ws's browser build and our page script, each a file under GRAPHIQL_ASSETS with a content hash in its name,
 * cached for a year. The page (GET /graphql from a browser) is small HTML that loads them: no CDN, no inline script.
 */
export const GRAPHIQL_ASSETS = "/graphiql/";

/**
 * Prefilled on a first visit: a query that runs as it is, with no token, and where the token goes. The Headers tab
 * starts empty: a placeholder token would make the first run fail.
 */
export const GRAPHIQL_OPTIONS: GraphiQLOptions & { showPersistHeadersSettings: boolean } = {
  title: "Marketplace Gateway",
  defaultQuery: `# Marketplace Gateway's GraphQL API.
# Run with Ctrl-Enter or the run button: this query
# needs no token. To act as yourself, put your API token
# in the Headers tab below:
#   {"Authorization": "Token <your token>"}
# POST /api-auth/password/ (or the obtainToken
# mutation) trades a username and password for one.
# Then ask, for example:
#   { me { username isStaff } }
{
  version
  publicMaintenanceAnnouncements(first: 5) {
    totalCount
    nodes {
      name
      state
      scheduledStart
      serviceProviderName
    }
  }
}

# Subscriptions run over graphql-ws with the same
# token. Replace the query above with:
# subscription {
#   offeringUserChanged {
#     previousState
#     state
#     offeringUser {
#       user { username fullName }
#       offering { name }
#     }
#   }
# }
`,
  headers: "{}",
  // Tokens stay out of localStorage unless the user turns this on in GraphiQL's settings (a GraphiQL prop that yoga's
  // page passes on but does not declare).
  shouldPersistHeaders: false,
  showPersistHeadersSettings: true,
};

const JS = "text/javascript; charset=utf-8";

/** Each asset by its name (stem.extension): media type and contents. */
type Source = [name: string, contentType: string, body: () => Buffer];

interface Asset {
  url: string;
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
  gzipped: Uint8Array<ArrayBuffer>;
}

const require = createRequire(import.meta.url);
const packageFile = (name: string, path: string) => readFileSync(join(dirname(require.resolve(`${name}/package.json`)), path));

async function sources(): Promise<Source[]> {
  // 9 MB of JavaScript in strings: imported on the first visit only, never when GraphiQL is off.
  const built = await import("@graphql-yoga/render-graphiql/graphiql");
  const text = (value: string) => () => Buffer.from(value);
  return [
    ["graphiql.css", "text/css; charset=utf-8", text(built.css)],
    ["graphiql.js", JS, text(built.js)],
    ["editor.worker.js", JS, text(built.editorWorkerService)],
    ["json.worker.js", JS, text(built.jsonWorker)],
    ["graphql.worker.js", JS, text(built.graphqlWorker)],
    ["graphql-ws.js", JS, () => packageFile("graphql-ws", "umd/graphql-ws.min.js")],
    ["page.js", JS, () => readFileSync(new URL("./graphiql-page.js", import.meta.url))],
    ["favicon.ico", "image/x-icon", () => Buffer.from(built.favicon.slice(built.favicon.indexOf(",") + 1), "base64")],
  ];
}

/** `graphiql.js` is served as `graphiql.<hash>.js`. */
function hashed([name, contentType, read]: Source): [string, Asset] {
  const body = read();
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
  const dot = name.lastIndexOf(".");
  const url = `${GRAPHIQL_ASSETS}${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
  return [name, { url, contentType, body: new Uint8Array(body), gzipped: new Uint8Array(gzipSync(body)) }];
}

interface Assets {
  byName: Map<string, Asset>;
  byUrl: Map<string, Asset>;
}

let loaded: Promise<Assets> | undefined;
/** Read, hashed and gzipped once per process (about 0.3 s), on first use. */
function assets(): Promise<Assets> {
  loaded ??= sources().then((list) => {
    const byName = new Map(list.map(hashed));
    return { byName, byUrl: new Map([...byName.values()].map((asset) => [asset.url, asset])) };
  });
  return loaded;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char);

/** JSON inside a <script type="application/json">: no "</script>" or "<!--" can end or change it. */
const jsonForHtml = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** yoga's `renderGraphiQL`: the page, with yoga's options and the worker URLs for graphiql-page.js. */
export async function renderGraphiQLPage(options: GraphiQLOptions): Promise<string> {
  const { byName } = await assets();
  const url = (name: string) => {
    const found = byName.get(name);
    if (!found) throw new Error(`no GraphiQL asset ${name}`);
    return found.url;
  };
  const workers = { editorWorkerService: url("editor.worker.js"), json: url("json.worker.js"), graphql: url("graphql.worker.js") };
  const config = { options, workers };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title ?? "GraphiQL")}</title>
    <link rel="icon" href="${url("favicon.ico")}" />
    <link rel="stylesheet" href="${url("graphiql.css")}" />
    <script type="application/json" id="graphiql-config">${jsonForHtml(config)}</script>
    <script src="${url("graphql-ws.js")}" defer></script>
    <script src="${url("page.js")}" defer></script>
    <script src="${url("graphiql.js")}" defer></script>
  </head>
  <body class="no-focus-outline">
    <noscript>GraphiQL needs JavaScript.</noscript>
    <div id="root"></div>
  </body>
</html>
`;
}

/** GET /graphiql/<file>: an asset, gzipped when the client takes it; mounted only when GraphiQL is on. */
export function mountGraphiQLAssets(hono: Hono) {
  hono.get(`${GRAPHIQL_ASSETS}:file`, async (c) => {
    const found = (await assets()).byUrl.get(c.req.path);
    if (!found) return c.notFound();
    const gzip = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    const headers: Record<string, string> = {
      "Content-Type": found.contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      Vary: "Accept-Encoding",
      ...(gzip ? { "Content-Encoding": "gzip" } : {}),
    };
    return c.body(gzip ? found.gzipped : found.body, 200, headers);
  });
}
