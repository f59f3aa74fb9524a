import { createGraphQLError, type Plugin } from "graphql-yoga";

/** Content types a browser sends cross-site without a CORS preflight (HTML forms, `fetch` with a string body). */
const SIMPLE_CONTENT_TYPES = new Set(["text/plain", "multipart/form-data", "application/x-www-form-urlencoded"]);

/** Either header (any non-empty value) marks a request no cross-site page could have sent without a preflight. */
export const CSRF_HEADERS = ["x-graphql-yoga-csrf", "graphql-require-preflight"];

/**
 * A browser's native `EventSource`: a GET that only asks for a stream, which cannot carry a custom header. It may only
 * read (subscriptions; mutations never run over GET), and credentials here are never ambient (no cookies), so a
 * foreign page gains nothing by sending one.
 */
const isEventSource = (request: Request) =>
  request.method === "GET" && (request.headers.get("accept") ?? "").split(",").some((type) => type.trim().startsWith("text/event-stream"));

function isSimpleRequest(request: Request): boolean {
  if (isEventSource(request)) return false;
  const mediaType = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (mediaType && !SIMPLE_CONTENT_TYPES.has(mediaType)) return false;
  return !CSRF_HEADERS.some((name) => request.headers.get(name)?.trim());
}

/**
 * What @graphql-yoga/plugin-csrf-prevention does (the package is not installed): GET and simple-content-type POST
 * requests must carry a CSRF header, so a foreign page cannot make a signed-in browser run an operation.
 * Runs when a request is parsed, after GraphiQL has answered its own page.
 */
export const csrfPrevention: Plugin = {
  onRequestParse({ request }) {
    if (!isSimpleRequest(request)) return;
    throw createGraphQLError(`Required CSRF header missing: send a JSON body or one of the headers ${CSRF_HEADERS.join(", ")}.`, {
      extensions: { code: "CSRF_HEADER_REQUIRED", http: { status: 403 } },
    });
  },
};
