import type { DocumentNode } from "graphql";
import { getOperationAST } from "graphql";
import { processRegularResult } from "graphql-yoga";
import type { Context } from "../context.ts";
import type { InitialContext, Yoga } from "./yoga.ts";

/** The texts of the documents kept parsed and validated, in characters all told; the oldest leave first. */
const PREPARED_CHARACTERS = 2_000_000;
/** Longer texts are not kept (yoga answers them): a client sending such documents is better served by persisted operations. */
const PREPARED_TEXT_LIMIT = 50_000;

interface PlainParams {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `{ query, variables?, operationName? }` and nothing else (no extensions, no persisted operation's id). */
function plainParams(body: unknown): PlainParams | undefined {
  if (!isRecord(body) || typeof body.query !== "string" || body.query.length > PREPARED_TEXT_LIMIT) return undefined;
  const { query, variables, operationName, ...rest } = body;
  if (Object.keys(rest).length) return undefined;
  if (variables != null && !isRecord(variables)) return undefined;
  if (operationName != null && typeof operationName !== "string") return undefined;
  return { query, variables: variables ?? undefined, operationName: operationName ?? undefined };
}

/** Yoga answers these with application/json (status 200 for GraphQL errors); any other Accept is left to yoga. */
const PLAIN_ACCEPTS = new Set(["application/json", "*/*"]);
const acceptsPlainJson = (accept: string | null) =>
  !accept || accept.split(",").every((type) => PLAIN_ACCEPTS.has(type.split(";")[0].trim().toLowerCase()));
const isJsonBody = (contentType: string | null) => contentType?.split(";")[0].trim().toLowerCase() === "application/json";

/**
 * POST /graphql for documents the gateway has already parsed and validated: the request's JSON is read once and the
 * operation runs through yoga's envelop pipeline (the same plugins, context, masking and result shape as yoga's own
 * HTTP handling), skipping yoga's request parsing, its per-request document lookups and its context building, which
 * would copy the context `contextOf` builds (as yoga's context function builds it) into another object. A document is
 * prepared through the pipeline's own parse and validate (so the GraphQL limits judge it) the first time it is sent;
 * anything else — another method, body or Accept, an invalid document, a subscription, persisted operations — is
 * handed to yoga.
 */
export function preparedOperations(
  yoga: Yoga,
  { persistedOperations }: { persistedOperations: unknown },
  contextOf: (request: Request, served: InitialContext) => Promise<Context>,
) {
  const prepared = new Map<string, DocumentNode>();
  let characters = 0;

  function prepare(query: string, enveloped: ReturnType<Yoga["getEnveloped"]>): DocumentNode | undefined {
    const known = prepared.get(query);
    if (known) return known;
    try {
      const document = enveloped.parse(query);
      if (enveloped.validate(enveloped.schema, document).length) return undefined;
      for (const oldest of prepared.keys()) {
        if (characters + query.length <= PREPARED_CHARACTERS) break;
        prepared.delete(oldest);
        characters -= oldest.length;
      }
      prepared.set(query, document);
      characters += query.length;
      return document;
    } catch {
      return undefined;
    }
  }

  /** The answer, or the request yoga is to answer (rebuilt when its body has been read). */
  return async function answer(request: Request, served: InitialContext): Promise<{ answer: Response } | { handOver: Request }> {
    if (persistedOperations || request.method !== "POST" || !isJsonBody(request.headers.get("content-type"))) return { handOver: request };
    if (!acceptsPlainJson(request.headers.get("accept"))) return { handOver: request };
    const text = await request.text();
    const handOver = () => ({ handOver: new Request(request.url, { method: request.method, headers: request.headers, body: text, signal: request.signal }) });
    let params: PlainParams | undefined;
    try {
      params = plainParams(JSON.parse(text));
    } catch {
      return handOver();
    }
    if (!params) return handOver();
    const enveloped = yoga.getEnveloped({ ...served, request, params });
    const document = prepare(params.query, enveloped);
    const operation = document && getOperationAST(document, params.operationName);
    if (!document || !operation || operation.operation === "subscription") return handOver();
    const contextValue = await contextOf(request, served);
    const result = await enveloped.execute({
      schema: enveloped.schema,
      document,
      variableValues: params.variables,
      operationName: params.operationName,
      contextValue,
    });
    // The Response of the moment: the HTTP server (@hono/node-server) puts its own in place, which it writes at once.
    return { answer: processRegularResult(result, { ...yoga.fetchAPI, Response: globalThis.Response }, "application/json") };
  };
}
