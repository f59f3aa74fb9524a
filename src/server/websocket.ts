import type { IncomingMessage, Server } from "node:http";
import { type DocumentNode, type ExecutionArgs, GraphQLError } from "graphql";
import { CloseCode } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { authenticate } from "../auth/authenticate.ts";
import { openSocketSession } from "../tokens/streams.ts";
import { type AppDeps, type Context, contextFor } from "../context.ts";
import { unauthenticated } from "../platform/errors.ts";
import type { WriteScope } from "../platform/database/write-gate.ts";
import { requestIdFrom } from "../observability/request-id.ts";
import { upgradeAllowed } from "./cors.ts";
import { resolveClientAddress } from "./client-address.ts";
import { closeSlowSubscribers } from "./slow-subscribers.ts";
import type { Yoga } from "./yoga.ts";

type SocketExtra = {
  gatewayContext?: Context;
  /** Frees the connection's place under its token and in its user's cap (src/auth/tokens-sessions.ts). */
  releaseSession?: () => void;
  /** The writes of the connection's operations. */
  writes?: WriteScope;
};

type Enveloped = ReturnType<Yoga["getEnveloped"]>;

/** The document, or its syntax error (or the token limit) as the operation's error instead of a 4500 close of the socket. */
function parseOperation(enveloped: Enveloped, query: string): DocumentNode | GraphQLError[] {
  try {
    return enveloped.parse(query);
  } catch (error) {
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
}

const tooManyOperations = (maximum: number) =>
  new GraphQLError(`Too many operations on this connection: at most ${maximum} may run at once; complete one first.`, {
    extensions: { code: "TOO_MANY_SUBSCRIPTIONS" },
  });

/** The token in connectionParams: an `authorization` entry in any letter case (GraphiQL sends its Headers tab as typed). */
function authorizationParam(params: Record<string, unknown>): string | null {
  const key = Object.keys(params).find((name) => name.toLowerCase() === "authorization");
  const value = key === undefined ? undefined : params[key];
  return typeof value === "string" ? value : null;
}

/** Closes with 4403 and the message the HTTP path gives for the same credentials ("Invalid token.", …). */
function refuse(socket: { close(code: number, reason: string): void }, failure: Error) {
  socket.close(CloseCode.Forbidden, failure.message);
  return false;
}

/** graphql-ws on the HTTP server's /graphql path, through yoga's plugins; the token comes in connectionParams. */
export function attachWebSocket(server: Server, yoga: Yoga, deps: AppDeps) {
  const wss = new WebSocketServer({
    server,
    path: "/graphql",
    // A message over MAX_BODY_BYTES closes the socket (1009), as a body over it gets 413 over HTTP.
    maxPayload: deps.config.maxBodyBytes,
    // Host and Origin as src/server/cors.ts allows them (a browser page from elsewhere gets 403).
    verifyClient: ({ req }, done) => (upgradeAllowed(deps.config, req.headers) ? done(true) : done(false, 403, "Forbidden")),
  });
  const writeScopes = new Set<WriteScope>();
  const disposable = useServer<Record<string, unknown> | undefined, SocketExtra>(
    {
      connectionInitWaitTimeout: deps.config.websocketInitTimeoutMs,
      execute: (args) => (args.rootValue as Enveloped).execute(args as ExecutionArgs),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args as ExecutionArgs),
      onConnect: async (ctx) => {
        const authorization = authorizationParam(ctx.connectionParams ?? {});
        const { viewer, failure, tokenDigest } = await authenticate(deps.db, authorization, deps.now(), deps.sessions.authentications);
        if (failure || !viewer || !tokenDigest) return refuse(ctx.extra.socket, failure ?? unauthenticated());
        const releaseSession = openSocketSession(deps.sessions, viewer.id, tokenDigest, ctx.extra.socket);
        if (!releaseSession) return false;
        ctx.extra.releaseSession = releaseSession;
        const writes = deps.writeGate.scope();
        writeScopes.add(writes);
        ctx.extra.writes = writes;
        const request = (ctx.extra as unknown as { request: IncomingMessage }).request;
        const origin = `http://${request.headers.host ?? "localhost"}`;
        ctx.extra.gatewayContext = contextFor(deps, viewer, undefined, {
          url: `${origin}/graphql`,
          requestId: requestIdFrom(request.headers["x-request-id"]),
          tokenDigest,
          ipAddress: resolveClientAddress(deps.config.trustedProxies, request.socket.remoteAddress, request.headers["x-forwarded-for"]),
          writes,
          unsentBytes: () => ctx.extra.socket.bufferedAmount,
        });
        return true;
      },
      onClose: (ctx) => {
        ctx.extra.releaseSession?.();
        if (ctx.extra.writes) writeScopes.delete(ctx.extra.writes);
      },
      onNext: closeSlowSubscribers(deps.config.subscriptionQueueMaxBytes),
      onSubscribe: async (ctx, _id, payload) => {
        const running = Object.keys(ctx.subscriptions).length;
        if (running > deps.config.websocketMaxSubscriptions) return [tooManyOperations(deps.config.websocketMaxSubscriptions)];
        const enveloped = yoga.getEnveloped({ gatewayContext: ctx.extra.gatewayContext });
        const document = parseOperation(enveloped, payload.query);
        if (Array.isArray(document)) return document;
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length) return errors;
        return {
          schema: enveloped.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: enveloped,
        };
      },
    },
    wss,
    deps.config.websocketHeartbeatMs,
  );
  return {
    /**
     * Closes every connection at once. A mutation still running on one loses its answer, so its write is stopped too
     * (rolled back, or its statement cancelled) unless its commit has gone out.
     */
    close: async () => {
      for (const writes of writeScopes) writes.close();
      for (const client of wss.clients) client.close(1001, "Server shutting down");
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
