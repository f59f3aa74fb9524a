import { envFlag } from "./env-flag.ts";

/** How much a GraphQL operation may ask for, what the endpoint reveals, and how WebSocket connections are kept. */
export interface GraphqlSettings {
  graphqlMaxDepth: number;
  graphqlMaxAliases: number;
  graphqlMaxTokens: number;
  graphqlMaxCost: number;
  graphqlMaxDirectives: number;
  graphqlIntrospection: boolean;
  graphiql: boolean;
  graphqlFieldSuggestions: boolean;
  /** The original error (message and stack) in `extensions.originalError` of masked errors. */
  graphqlErrorDetails: boolean;
  websocketInitTimeoutMs: number;
  websocketMaxSubscriptions: number;
  /** Ping interval; a socket that has not answered the previous ping by the next one is terminated. */
  websocketHeartbeatMs: number;
  /** graphql-ws connections plus SSE subscription streams one user may hold open on one instance. */
  websocketMaxConnectionsPerUser: number;
  /** How often the tokens of open connections and streams are re-checked (idle expiry, deactivation, lost revocations). */
  websocketTokenCheckMs: number;
  /** Changes one subscriber may have waiting (not yet taken by its stream) before it is dropped as too slow. */
  subscriptionQueueMaxMessages: number;
  /** Bytes one subscriber may have waiting: its queued changes, and on graphql-ws the socket's unsent data. */
  subscriptionQueueMaxBytes: number;
  /** A typed failure its mutation's union does not list fails the request (src/graphql/declared-failures.ts). */
  graphqlStrictFailures: boolean;
  /** Queries and mutations run by their compiled plans (src/graphql/plans/); off: graphql-js's executor runs them all. */
  graphqlCompiledPlans: boolean;
}

type LimitKey = { [K in keyof GraphqlSettings]: GraphqlSettings[K] extends number ? K : never }[keyof GraphqlSettings];

const LIMITS: Array<[LimitKey, string, number]> = [
  ["graphqlMaxDepth", "GRAPHQL_MAX_DEPTH", 10],
  ["graphqlMaxAliases", "GRAPHQL_MAX_ALIASES", 100],
  ["graphqlMaxTokens", "GRAPHQL_MAX_TOKENS", 2000],
  ["graphqlMaxCost", "GRAPHQL_MAX_COST", 5000],
  ["graphqlMaxDirectives", "GRAPHQL_MAX_DIRECTIVES", 50],
  ["websocketInitTimeoutMs", "GRAPHQL_WS_INIT_TIMEOUT_MS", 10_000],
  ["websocketMaxSubscriptions", "GRAPHQL_WS_MAX_SUBSCRIPTIONS", 100],
  ["websocketHeartbeatMs", "GRAPHQL_WS_HEARTBEAT_MS", 30_000],
  ["websocketMaxConnectionsPerUser", "GRAPHQL_WS_MAX_CONNECTIONS_PER_USER", 100],
  ["websocketTokenCheckMs", "GRAPHQL_WS_TOKEN_CHECK_MS", 30_000],
  ["subscriptionQueueMaxMessages", "SUBSCRIPTION_QUEUE_MAX_MESSAGES", 1000],
  ["subscriptionQueueMaxBytes", "SUBSCRIPTION_QUEUE_MAX_BYTES", 8 * 1024 * 1024],
];

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** Production (`NODE_ENV=production`) hides introspection, GraphiQL and suggestions unless asked for. */
export function loadGraphqlSettings(env: NodeJS.ProcessEnv = process.env): GraphqlSettings {
  const exposed = env.NODE_ENV !== "production";
  const limits = Object.fromEntries(LIMITS.map(([key, name, fallback]) => [key, positiveInteger(env, name, fallback)]));
  return {
    ...(limits as Record<LimitKey, number>),
    graphqlIntrospection: envFlag(env.GRAPHQL_INTROSPECTION, exposed),
    graphiql: envFlag(env.GRAPHIQL, exposed),
    graphqlFieldSuggestions: envFlag(env.GRAPHQL_FIELD_SUGGESTIONS, exposed),
    graphqlErrorDetails: envFlag(env.GRAPHQL_ERROR_DETAILS, env.NODE_ENV === "development"),
    graphqlStrictFailures: envFlag(env.GRAPHQL_STRICT_FAILURES, false),
    graphqlCompiledPlans: envFlag(env.GRAPHQL_COMPILED_PLANS, true),
  };
}
