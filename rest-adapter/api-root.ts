import type { Hono } from "hono";
import { type AppDeps, baseUrlOf } from "../src/context.ts";
import type { RouteSpec } from "./route.ts";

/** `/api/<name>/`: a collection at the top of the API. */
const TOP_LEVEL = /^\/api\/([a-z0-9-]+)\/$/;

/** The collections at the top of the API, by name, in path order: what Waldur's API root lists. */
export const topLevelCollections = (routes: RouteSpec[]): string[] =>
  [...new Set(routes.filter((route) => route.method === "GET" && route.kind === "list").flatMap((route) => TOP_LEVEL.exec(route.path)?.[1] ?? []))].sort();

/** `GET /api/`: as DRF's API root, a map of each collection's name to its absolute URL. Public: it names paths only. */
export function mountApiRoot(app: Hono, routes: RouteSpec[], deps: AppDeps) {
  const names = topLevelCollections(routes);
  const root = (c: { req: { url: string } }) => {
    const base = baseUrlOf(deps.config.publicUrl, c.req.url);
    return Object.fromEntries(names.map((name) => [name, `${base}/api/${name}/`]));
  };
  for (const path of ["/api/", "/api"]) app.get(path, (c) => c.json(root(c)));
}
