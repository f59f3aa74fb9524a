import { createYoga, maskError, type Plugin, type YogaServerInstance } from "graphql-yoga";
import { databaseErrorForClient } from "../platform/database-errors.ts";
import { type AppDeps, buildContext, type Context } from "../context.ts";
import { schema } from "../graphql/schema.ts";
import { csrfPrevention } from "./csrf.ts";
import { graphqlLimitPlugins, withoutSuggestions } from "./graphql-limits.ts";
import { mutationRateLimit } from "../platform/rate-limit.ts";
import { useSharedSubscriptionResults } from "./shared-subscription-results.ts";

/** Callers that built the context themselves (REST adapter, WebSocket) hand it over as `gatewayContext`. */
export interface InitialContext {
  gatewayContext?: Context;
  /** The TCP peer's address, handed over by the HTTP server. */
  clientAddress?: string;
  /** The HTTP request an operation serves (yoga sets it for /graphql; the REST adapter hands it over). */
  request?: Request;
}

export type Yoga = YogaServerInstance<InitialContext, Context>;

/** What the context needs from an HTTP request. Like Waldur, a token may also come as `?x-auth-token=`. */
export function requestInfo(request: Request, clientAddress?: string) {
  const queryToken = new URL(request.url).searchParams.get("x-auth-token");
  return {
    authorization: request.headers.get("authorization") ?? (queryToken ? `Token ${queryToken}` : null),
    url: request.url,
    requestId: request.headers.get("x-request-id"),
    ipAddress: request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || clientAddress || null,
  };
}

/** `instrumentation`: envelop plugins that observe every operation (metrics, logs). */
export function createGraphqlServer(deps: AppDeps, instrumentation: Plugin[] = []): Yoga {
  return createYoga<InitialContext, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: deps.config.graphiql ? { title: "Marketplace Gateway", subscriptionsProtocol: "WS" } : false,
    batching: false,
    // The rate limit comes after instrumentation, so throttled mutations are still observed.
    plugins: [csrfPrevention, ...graphqlLimitPlugins(deps.config), useSharedSubscriptionResults(), ...instrumentation, mutationRateLimit(deps)],
    logging: false,
    maskedErrors: {
      isDev: deps.config.graphqlErrorDetails,
      maskError: (error, message, isDev) => {
        const cause = (error as { originalError?: unknown }).originalError ?? error;
        const masked = databaseErrorForClient(cause) ?? maskError(error, message, isDev);
        return deps.config.graphqlFieldSuggestions ? masked : withoutSuggestions(masked);
      },
    },
    context: async (initial) =>
      initial.gatewayContext ??
      buildContext(deps, requestInfo((initial as unknown as { request: Request }).request, initial.clientAddress)),
  }) as unknown as Yoga;
}
