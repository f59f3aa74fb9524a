import type { Hono } from "hono";
import { baseUrlOf } from "../context.ts";

/** Where a newcomer goes next: REST, its documentation, GraphQL (GraphiQL when it is on). */
export interface LandingLinks {
  graphiql: boolean;
  publicUrl?: string;
}

const PAGE = (graphiql: boolean) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Marketplace Gateway</title></head>
  <body>
    <h1>Marketplace Gateway</h1>
    <ul>
      <li><a href="/api/">REST API</a> (Waldur-compatible): every collection, with <code>Authorization: Token &lt;key&gt;</code></li>
      <li><a href="/api/docs/">REST documentation</a> (Swagger UI) and the <a href="/api/schema/">OpenAPI document</a></li>
      <li>${graphiql ? '<a href="/graphql">GraphQL</a> (GraphiQL in a browser)' : "GraphQL at <code>/graphql</code>"}, with subscriptions over graphql-ws and SSE</li>
      <li><a href="/dashboard/">Operations dashboard</a>: offering users, live transitions, maintenance and orders, for a provider's token</li>
    </ul>
  </body>
</html>
`;

/** `GET /`: a page of links for a browser; a map of the same entry points for anything else. */
export function mountLanding(app: Hono, { graphiql, publicUrl }: LandingLinks) {
  const page = PAGE(graphiql);
  app.get("/", (c) => {
    if (c.req.header("accept")?.includes("text/html")) return c.html(page);
    const origin = baseUrlOf(publicUrl, c.req.url);
    return c.json({ rest: `${origin}/api/`, docs: `${origin}/api/docs/`, openapi: `${origin}/api/schema/`, graphql: `${origin}/graphql` });
  });
}
