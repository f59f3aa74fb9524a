import { useDeclaredFailures } from "../graphql/declared-failures.ts";
import { useCompiledPlans } from "../graphql/plans/plugin.ts";
import { createYoga, maskError, type Plugin, type YogaServerInstance } from "graphql-yoga";
import { databaseErrorForClient } from "../platform/database/database-errors.ts";
import { type AppDeps, buildContext, type Context } from "../context.ts";
import { schema } from "../schema.ts";
import { csrfPrevention } from "./csrf.ts";
import { errorForClient } from "../platform/error-messages.ts";
import { GRAPHIQL_OPTIONS, renderGraphiQLPage } from "./graphiql.ts";
import { graphqlLimitPlugins } from "./graphql-limits.ts";
import { mutationRateLimit } from "./mutation-rate-limit.ts";
import { DOCUMENT_ID_PARAM, persistedOperationPlugins } from "./persisted-operations.ts";
import { useSharedSubscriptionResults } from "./shared-subscription-results.ts";
import { useTokenSessions } from "../tokens/streams.ts";
import type { Writes } from "../platform/database/write-gate.ts";

/** Callers that built the context themselves (REST adapter, WebSocket) hand it over as `gatewayContext`. */
export interface InitialContext {
  gatewayContext?: Context;
  /** The client's address (src/server/client-address.ts), handed over by the HTTP server. */
  clientAddress?: string;
  /** What the response holds unsent (src/server/unsent-bytes.ts), handed over by the HTTP server. */
  unsentBytes?: () => number;
  /** The HTTP request an operation serves (yoga sets it for /graphql; the REST adapter hands it over). */
  request?: Request;
  /** The request's scope of the server's writes (src/server/stopped-requests.ts), handed over by the HTTP server. */
  writes?: Writes;
}

export type Yoga = YogaServerInstance<InitialContext, Context>;

/** A token sent as `?x-auth-token=`, as Waldur accepts it, as an Authorization header's value. */
function queryToken(url: string) {
  const token = new URL(url).searchParams.get("x-auth-token");
  return token ? `Token ${token}` : null;
}

/** What the HTTP server hands over about a request (see InitialContext). */
type Served = Pick<InitialContext, "clientAddress" | "writes" | "unsentBytes">;

/** What the context needs from an HTTP request, and what the HTTP server hands over about it. */
function requestInfo(request: Request, served: Served) {
  return {
    authorization: request.headers.get("authorization") ?? queryToken(request.url),
    url: request.url,
    requestId: request.headers.get("x-request-id"),
    ipAddress: served.clientAddress ?? null,
    writes: served.writes,
    unsentBytes: served.unsentBytes,
    request,
  };
}

/** The context of an operation an HTTP request serves (/graphql and the REST adapter alike). */
export const requestContext = (deps: AppDeps, request: Request, served: Served = {}) =>
  buildContext(deps, requestInfo(request, served));

/** `instrumentation`: envelop plugins that observe every operation (metrics, logs). */
export function createGraphqlServer(deps: AppDeps, instrumentation: Plugin[] = []): Yoga {
  return createYoga<InitialContext, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    // Served from the gateway (src/server/graphiql.ts), no CDN; subscriptions over graphql-ws with the Headers tab's token.
    graphiql: deps.config.graphiql ? GRAPHIQL_OPTIONS : false,
    renderGraphiQL: renderGraphiQLPage,
    batching: false,
    // graphql-codegen's persisted documents name themselves by `documentId` (src/server/persisted-operations.ts).
    extraParamNames: deps.config.persistedOperations ? [DOCUMENT_ID_PARAM] : [],
    // CORS is src/server/cors.ts (CORS_ORIGINS) for every path; yoga's default would echo any Origin with credentials.
    cors: false,
    // The rate limit comes after instrumentation, so throttled mutations are still observed.
    plugins: [csrfPrevention, ...persistedOperationPlugins(deps.config), ...graphqlLimitPlugins(deps.config), useSharedSubscriptionResults(), ...instrumentation, mutationRateLimit(deps), useTokenSessions(deps.sessions), ...(deps.config.graphqlStrictFailures ? [useDeclaredFailures()] : []), ...(deps.config.graphqlCompiledPlans ? [useCompiledPlans()] : [])],
    logging: false,
    maskedErrors: {
      isDev: deps.config.graphqlErrorDetails,
      maskError: (error, message, isDev) => {
        const cause = (error as { originalError?: unknown }).originalError ?? error;
        const masked = databaseErrorForClient(cause) ?? maskError(error, message, isDev);
        return errorForClient(masked, deps.config.graphqlFieldSuggestions);
      },
    },
    context: async (initial) =>
      initial.gatewayContext ??
      requestContext(deps, (initial as unknown as { request: Request }).request, initial),
  }) as unknown as Yoga;
}

/**
 * A JSON answer of yoga's as a Response with its body read: the Node adapter writes such a body at once, where it
 * would read yoga's stream chunk by chunk (and wait a timer turn for its end). Streams (SSE, multipart) pass as they are.
 */
export async function wholeJson(response: Response): Promise<Response> {
  if (!/json/.test(response.headers.get("content-type") ?? "")) return response;
  return new Response(await response.text(), { status: response.status, statusText: response.statusText, headers: response.headers });
}
