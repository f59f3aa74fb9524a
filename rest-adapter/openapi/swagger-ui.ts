import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Hono } from "hono";

const DIST = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** The files of swagger-ui-dist the page loads, served from node_modules. */
const ASSET_TYPES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "index.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

/** Relative URLs throughout, so the page also works behind a proxy that mounts the gateway under a prefix. */
const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Marketplace Gateway REST API</title>
    <link rel="stylesheet" type="text/css" href="swagger-ui.css">
    <link rel="stylesheet" type="text/css" href="index.css">
    <link rel="icon" type="image/png" href="favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="swagger-initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

const INITIALIZER = `window.onload = () => {
  window.ui = SwaggerUIBundle({
    url: "../schema/",
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    persistAuthorization: true,
    // No badge from validator.swagger.io: the page loads nothing from elsewhere (its Content-Security-Policy says so).
    validatorUrl: null,
  });
};
`;

const cache = new Map<string, Uint8Array<ArrayBuffer>>();

async function asset(name: string) {
  const cached = cache.get(name);
  if (cached) return cached;
  const content = new Uint8Array(await readFile(join(DIST, name)));
  cache.set(name, content);
  return content;
}

/** Swagger UI at `<base>/`, showing the document at `<base>/../schema/`. */
export function mountSwaggerUi(app: Hono, base: string) {
  app.get(base, (c) => c.redirect(`${base.split("/").at(-1)}/`, 301));
  app.get(`${base}/`, (c) => c.html(PAGE));
  app.get(`${base}/swagger-initializer.js`, (c) => c.body(INITIALIZER, 200, { "Content-Type": "text/javascript; charset=utf-8" }));
  app.get(`${base}/:name`, async (c) => {
    const name = c.req.param("name");
    const type = Object.hasOwn(ASSET_TYPES, name) ? ASSET_TYPES[name] : undefined;
    if (!type) return c.json({ detail: "Not found." }, 404);
    return c.body(await asset(name), 200, { "Content-Type": type, "Cache-Control": "public, max-age=86400" });
  });
}
