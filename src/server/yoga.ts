import { createYoga, type YogaServerInstance } from "graphql-yoga";
import { type AppDeps, buildContext, type Context } from "../context.ts";
import { schema } from "../graphql/schema.ts";

/** Callers that built the context themselves (REST adapter, WebSocket) hand it over as `gatewayContext`. */
export interface InitialContext {
  gatewayContext?: Context;
}

export type Yoga = YogaServerInstance<InitialContext, Context>;

export const requestInfo = (request: Request) => ({
  authorization: request.headers.get("authorization"),
  url: request.url,
  requestId: request.headers.get("x-request-id"),
  ipAddress: request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? request.headers.get("x-real-ip"),
});

export function createGraphqlServer(deps: AppDeps): Yoga {
  return createYoga<InitialContext, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: { title: "Marketplace Gateway", subscriptionsProtocol: "WS" },
    batching: false,
    logging: false,
    context: async (initial) =>
      initial.gatewayContext ?? buildContext(deps, requestInfo((initial as unknown as { request: Request }).request)),
  }) as unknown as Yoga;
}
