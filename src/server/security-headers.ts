import type { MiddlewareHandler } from "hono";
import { setAnsweredHeader } from "./answered-headers.ts";

/** On every response: no MIME sniffing, no framing, no Referer sent from our pages. */
const EVERY_RESPONSE: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
};

const LOCKED = "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

/** Responses that are not HTML pages (JSON, SSE, assets) load nothing. */
const API_CSP = `default-src 'none'; ${LOCKED}`;

/**
 * HTML pages by path prefix. Swagger UI (rest-adapter/openapi/swagger-ui.ts) loads only its own files, the document
 * and, for "Try it out", the API (here or at PUBLIC_URL); React sets inline styles. GraphiQL (src/server/graphiql.ts)
 * loads its own files and Monaco's workers from /graphiql/, talks to the page's origin only (HTTP and graphql-ws), and
 * needs inline styles (Monaco, React) and data: fonts and images (its stylesheet inlines them).
 */
function pagePolicies(publicUrl: string | undefined): Array<[prefix: string, policy: string]> {
  const api = publicUrl ? `'self' ${new URL(publicUrl).origin}` : "'self'";
  return [
    ["/api/docs/", `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src ${api}; ${LOCKED}`],
    ["/graphql", `default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; ${LOCKED}`],
  ];
}

/** Security headers on every response (REST, GraphQL, SSE, pages, errors); a header a route set itself is kept. */
export function securityHeaders(publicUrl?: string): MiddlewareHandler {
  const pages = pagePolicies(publicUrl);
  // Any other HTML page (none today) gets the strictest policy.
  const policyFor = (path: string, contentType: string | null) =>
    (contentType?.toLowerCase().startsWith("text/html") && pages.find(([prefix]) => path.startsWith(prefix))?.[1]) || API_CSP;
  return async function securityHeaders(c, next) {
    await next();
    const headers = c.res.headers;
    for (const [name, value] of Object.entries(EVERY_RESPONSE)) if (!headers.has(name)) setAnsweredHeader(c, name, value);
    if (!headers.has("Content-Security-Policy")) setAnsweredHeader(c, "Content-Security-Policy", policyFor(c.req.path, headers.get("content-type")));
  };
}
