import { createRequire } from "node:module";
import type { GraphQLSchema } from "graphql";
import type { Context, Hono } from "hono";
import type { CompiledRoute } from "../execute.ts";
import { buildOpenApiDocument } from "./document.ts";
import { mountSwaggerUi } from "./swagger-ui.ts";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

/**
 * `GET /api/schema/`: the OpenAPI 3.1 document of every route, built on the first request (it runs every route's
 * input readers a few thousand times, which start-up need not pay for) and cached. `GET /api/docs/`: Swagger UI.
 */
export function mountOpenApi(app: Hono, routes: CompiledRoute[], schema: GraphQLSchema, config: { publicUrl?: string }) {
  let document: string | undefined;
  const serveDocument = (c: Context) => {
    document ??= JSON.stringify(buildOpenApiDocument(routes, schema, { version, publicUrl: config.publicUrl }));
    return c.body(document, 200, { "Content-Type": "application/json" });
  };
  for (const path of ["/api/schema/", "/api/schema"]) app.get(path, serveDocument);
  mountSwaggerUi(app, "/api/docs");
}
