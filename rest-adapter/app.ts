import type { IncomingMessage } from "node:http";
import type { Context as HonoContext, Hono } from "hono";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import type { GraphQLError, GraphQLSchema } from "graphql";
import type { AppDeps, Context } from "../src/context.ts";
import { BODY_TOO_LARGE, type FieldErrors, fieldError, invalid, notFound } from "../src/platform/errors.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../src/platform/json-depth.ts";
import { reportServerError } from "../src/observability/request-scope.ts";
import { type CompiledRoute, compileRoutes, type OperationPipeline, runOperation } from "./execute.ts";
import type { RestRequest } from "./route.ts";
import type { RestSurface } from "./surface.ts";
import { pythonTypeName } from "./input.ts";
import { mountOpenApi } from "./openapi/mount.ts";
import { mountApiRoot } from "./api-root.ts";
import { withRestFieldNames } from "./field-names.ts";
import { failureOf, withoutOutcome } from "./typed-failures.ts";
import { lastPage, linkHeader, invalidPage, type PageRequest, pageRequest, selectFields, toWaldurError, type WaldurError } from "./waldur.ts";

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

class RestFailure extends Error {
  constructor(readonly response: WaldurError) {
    super("rest failure");
  }
}

const tooLarge = () => new RestFailure({ status: 413, body: BODY_TOO_LARGE });

/**
 * Reads at most `maxBytes`, so a chunked body without Content-Length cannot grow without bound; leaving the loop early
 * cancels the stream (a web stream) or destroys it (a Node stream).
 */
async function readLimited(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The request's body: read from Node's own stream when served by @hono/node-server (the web Request, with its stream
 * adapters, is then never built), from the web Request otherwise (in-process `fetch`).
 */
const bodyOf = (c: HonoContext): AsyncIterable<Uint8Array> | null =>
  (c.env as { incoming?: IncomingMessage } | undefined)?.incoming ?? c.req.raw.body;

function parseJson(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RestFailure({ status: 400, body: { detail: `JSON parse error - ${(error as Error).message}` } });
  }
  if (nestsDeeperThan(parsed)) {
    throw new RestFailure({ status: 400, body: { detail: `JSON parse error - nesting deeper than ${MAX_JSON_DEPTH} levels.` } });
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw fieldError("non_field_errors", `Invalid data. Expected a dictionary, but got ${pythonTypeName(parsed)}.`);
  }
  return parsed as Record<string, unknown>;
}

/** Form fields as DRF's QueryDict hands them to a serializer: text values, the last of a repeated name. */
const formFields = (entries: Iterable<[string, unknown]>) =>
  Object.fromEntries([...entries].filter((entry): entry is [string, string] => typeof entry[1] === "string"));

async function parseMultipart(bytes: Buffer, contentType: string): Promise<Record<string, unknown>> {
  try {
    return formFields(await new Response(Uint8Array.from(bytes), { headers: { "content-type": contentType } }).formData());
  } catch (error) {
    throw new RestFailure({ status: 400, body: { detail: `Multipart form parse error - ${(error as Error).message}` } });
  }
}

/** The body parsers DRF enables by default: JSON, HTML forms and multipart forms (by Content-Type; JSON otherwise). */
async function readBody(c: HonoContext, maxBytes: number): Promise<Record<string, unknown>> {
  if (!METHODS_WITH_BODY.has(c.req.method)) return {};
  const declared = Number(c.req.header("content-length") ?? 0);
  if (declared > maxBytes) throw tooLarge();
  const bytes = await readLimited(bodyOf(c), maxBytes);
  const contentType = c.req.header("content-type") ?? "";
  const mediaType = contentType.split(";")[0].trim().toLowerCase();
  if (mediaType === "application/x-www-form-urlencoded") return formFields(new URLSearchParams(bytes.toString("utf8")));
  if (mediaType === "multipart/form-data" && bytes.length) return parseMultipart(bytes, contentType);
  return parseJson(bytes.toString("utf8"));
}

const NULL_CHARACTERS = ["Null characters are not allowed."];

/** PostgreSQL cannot store U+0000; Django's ProhibitNullCharactersValidator turns it into a 400 for the field. */
function rejectNullCharacters({ query, body }: RestRequest) {
  const errors: FieldErrors = {};
  for (const [name, value] of query) if (value.includes("\u0000")) errors[name] = NULL_CHARACTERS;
  for (const [name, value] of Object.entries(body)) {
    if (JSON.stringify(value)?.includes("\\u0000")) errors[name.includes("\u0000") ? "non_field_errors" : name] = NULL_CHARACTERS;
  }
  if (Object.keys(errors).length) throw invalid(errors);
}

function respond(c: HonoContext, status: number, body: unknown, headers: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  if (body === undefined) return c.body(null, status as StatusCode);
  return c.json(body as object, status as ContentfulStatusCode);
}

async function handle(c: HonoContext, route: CompiledRoute, { pipeline, contextOf, deps }: RestMount) {
  try {
    const ctx = await contextOf(c);
    const url = new URL(c.req.url);
    const request: RestRequest = { params: c.req.param() as Record<string, string>, query: url.searchParams, body: await readBody(c, deps.config.maxBodyBytes) };
    rejectNullCharacters(request);
    if (!route.public) ctx.requireViewer();
    let page = route.kind === "list" ? pageRequest(url.searchParams) : undefined;
    const run = (at: PageRequest | undefined) =>
      runOperation(pipeline, ctx, route, {
        ...route.variables?.(request),
        ...(at ? { first: at.pageSize, offset: (at.page - 1) * at.pageSize } : {}),
      });
    let result = await run(page);
    if (page?.last) {
      page = lastPage(page, (Object.values(result.data ?? {})[0] as { totalCount?: number } | null)?.totalCount ?? 0);
      if (page.page > 1) result = await run(page);
    }
    const root = Object.values(result.data ?? {})[0] as Record<string, unknown> | null | undefined;
    const failure = result.errors?.[0] ?? failureOf(root);
    if (failure) throw withRestFieldNames(failure, route.body);
    const value = withoutOutcome(root) as Record<string, unknown>;
    const fields = url.searchParams.getAll("field");
    if (route.kind === "empty") return respond(c, route.status ?? 200, undefined);
    // A lookup answers null for what does not exist or the viewer may not see: Waldur's 404.
    if (!route.statusOf && Object.values(result.data ?? {}).some((root) => root === null)) throw notFound();
    if (route.kind === "object") {
      const status = route.statusOf?.(value) ?? route.status ?? 200;
      return respond(c, status, selectFields(route.shape ? route.shape(value) : value, fields));
    }
    const { totalCount, nodes } = value as { totalCount: number; nodes: unknown[] };
    if (page && page.page > 1 && (page.page - 1) * page.pageSize >= totalCount) throw invalidPage();
    const publicUrl = new URL(url.pathname + url.search, ctx.baseUrl);
    const links = linkHeader(publicUrl, page!, totalCount);
    return respond(c, 200, selectFields(route.shape ? nodes.map(route.shape) : nodes, fields), {
      "X-Result-Count": String(totalCount),
      ...(links ? { Link: links } : {}),
    });
  } catch (error) {
    const failure = error instanceof RestFailure ? error.response : toWaldurError(error as GraphQLError, route.errorStatus);
    if (failure.status === 500) reportServerError(c.req.raw, error);
    return respond(c, failure.status, failure.body, failure.headers);
  }
}

/** Waldur's paths end with a slash; clients that drop it are served too. */
const withAndWithoutSlash = (path: string) => [path, path.replace(/\/$/, "")];

/**
 * What the composition root (src/app.ts) hands the engine: the REST surface it serves and the schema its documents
 * run on, and what the server lends it, which the engine (below the domains, so below the server) cannot import.
 */
export interface RestMount {
  api: RestSurface;
  schema: GraphQLSchema;
  pipeline: OperationPipeline;
  /** A request's context, built as /graphql builds it (client address, the request's write scope). */
  contextOf: (c: HonoContext) => Promise<Context>;
  deps: AppDeps;
}

/** Registers every route of the surface on the Hono app; unknown methods on known paths answer 405. */
export function mountRest(app: Hono, mount: RestMount) {
  const { api, schema, deps } = mount;
  const routes = compileRoutes(api, schema);
  for (const route of routes) {
    for (const path of withAndWithoutSlash(route.path)) app.on(route.method, path, (c) => handle(c, route, mount));
  }
  const publicPaths = new Set(routes.filter((r) => r.public).flatMap((r) => withAndWithoutSlash(r.path)));
  for (const path of new Set(routes.flatMap((r) => withAndWithoutSlash(r.path)))) {
    app.all(path, (c) => methodNotAllowed(c, mount, publicPaths.has(path)));
  }
  mountOpenApi(app, routes, schema, deps.config);
  mountApiRoot(app, routes, deps);
  return routes;
}

/** As in DRF, authentication runs before the method check: an anonymous caller gets 401, not 405. */
async function methodNotAllowed(c: HonoContext, { contextOf }: RestMount, isPublic: boolean) {
  try {
    if (!isPublic) (await contextOf(c)).requireViewer();
  } catch (error) {
    const failure = toWaldurError(error as GraphQLError);
    return respond(c, failure.status, failure.body, failure.headers);
  }
  return respond(c, 405, { detail: `Method "${c.req.method}" not allowed.` });
}
