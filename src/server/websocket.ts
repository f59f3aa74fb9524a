import type { IncomingMessage, Server } from "node:http";
import type { ExecutionArgs } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { authenticate } from "../auth/authenticate.ts";
import { type AppDeps, type Context, contextFor } from "../context.ts";
import type { Yoga } from "./yoga.ts";

type SocketExtra = {
  gatewayContext?: Context;
};

type Enveloped = ReturnType<Yoga["getEnveloped"]>;

/** graphql-ws on the HTTP server's /graphql path, through yoga's plugins; the token comes in connectionParams. */
export function attachWebSocket(server: Server, yoga: Yoga, deps: AppDeps) {
  const wss = new WebSocketServer({ server, path: "/graphql" });
  const disposable = useServer<Record<string, unknown> | undefined, SocketExtra>(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args as ExecutionArgs),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args as ExecutionArgs),
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const authorization = params.authorization ?? params.Authorization;
        const { viewer, failure } = await authenticate(deps.db, typeof authorization === "string" ? authorization : null);
        if (!viewer || failure) return false;
        const request = (ctx.extra as unknown as { request: IncomingMessage }).request;
        const origin = `http://${request.headers.host ?? "localhost"}`;
        ctx.extra.gatewayContext = contextFor(deps, viewer, undefined, {
          url: `${origin}/graphql`,
          requestId: request.headers["x-request-id"] as string | undefined,
          ipAddress: String(request.headers["x-forwarded-for"] ?? "").split(",")[0].trim() || request.socket.remoteAddress || null,
        });
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const enveloped = yoga.getEnveloped({ gatewayContext: ctx.extra.gatewayContext });
        const document = enveloped.parse(payload.query);
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
  );
  return {
    close: async () => {
      for (const client of wss.clients) client.close(1001, "Server shutting down");
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
