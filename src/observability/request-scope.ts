import { AsyncLocalStorage } from "node:async_hooks";

/** Where a GraphQL operation came from: a REST route, POST/GET /graphql (SSE included), or a graphql-ws socket. */
export type OperationSource = "rest" | "graphql" | "websocket";

/** What the log line of one HTTP request gathers while it is served. */
export interface RequestScope {
  requestId: string;
  source: Exclude<OperationSource, "websocket">;
  operations: string[];
  errors: Set<unknown>;
}

const storage = new AsyncLocalStorage<RequestScope>();

export const runInRequestScope = <T>(scope: RequestScope, work: () => T): T => storage.run(scope, work);

/** The HTTP request being served; undefined on WebSocket connections. */
export const currentRequest = (): RequestScope | undefined => storage.getStore();

/** A GraphQL error wraps what was thrown; the log wants the thrown error and its stack. */
export const thrownError = (error: unknown): unknown => (error as { originalError?: unknown } | null)?.originalError ?? error;

/** Puts the error, with its stack, into the current request's log line; the response keeps its generic body. */
export function reportServerError(error: unknown): void {
  currentRequest()?.errors.add(thrownError(error));
}
