/** Where a GraphQL operation came from: a REST route, POST/GET /graphql (SSE included), or a graphql-ws socket. */
export type OperationSource = "rest" | "graphql" | "websocket";

/** What the log line of one HTTP request gathers while it is served. */
export interface RequestScope {
  requestId: string;
  source: Exclude<OperationSource, "websocket">;
  operations: string[];
  errors: Set<unknown>;
}

/**
 * Scopes by the request they serve. Not AsyncLocalStorage: on Node 20 that puts a hook on every promise the
 * process creates, which cost subscription fan-out and transitions a measurable share of their CPU.
 */
const scopes = new WeakMap<Request, RequestScope>();

export const openRequestScope = (request: Request, scope: RequestScope): void => void scopes.set(request, scope);

/** The scope of an HTTP request being served; undefined for WebSocket operations (they have no Request). */
export const requestScopeOf = (request: Request | undefined): RequestScope | undefined => (request ? scopes.get(request) : undefined);

/** A GraphQL error wraps what was thrown; the log wants the thrown error and its stack. */
export const thrownError = (error: unknown): unknown => (error as { originalError?: unknown } | null)?.originalError ?? error;

/** Puts the error, with its stack, into the request's log line; the response keeps its generic body. */
export function reportServerError(request: Request, error: unknown): void {
  requestScopeOf(request)?.errors.add(thrownError(error));
}
