import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { mountRest } from "../rest-adapter/app.ts";
import type { AppDeps } from "./context.ts";
import { type Config, loadConfig } from "./platform/config.ts";
import { type Database, openDatabase } from "./platform/database.ts";
import { applyMigrations } from "./platform/migrations.ts";
import { openPubSub, type PubSubHandle } from "./platform/pubsub.ts";
import { attachWebSocket } from "./server/websocket.ts";
import { clientAddress } from "./server/client-address.ts";
import { createGraphqlServer } from "./server/yoga.ts";

export const MIGRATIONS_DIR = new URL("../prisma/migrations", import.meta.url).pathname;

export interface App {
  hono: Hono;
  deps: AppDeps;
  database: Database;
  fetch: (request: Request) => Response | Promise<Response>;
  /** Starts listening; resolves with the port actually bound. */
  listen(port?: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

export interface AppOptions {
  config?: Partial<Config>;
  /** An already-open database (tests share one); otherwise opened from the config. */
  database?: Database;
  now?: () => Date;
}

/** Builds the whole service: database (migrated), pub/sub, GraphQL, REST adapter and WebSocket transport. */
export async function createApp(options: AppOptions = {}): Promise<App> {
  const config = { ...loadConfig(), ...options.config };
  const database =
    options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  await applyMigrations(database.sql, MIGRATIONS_DIR);
  const pubsub: PubSubHandle = openPubSub(config.redisUrl, config.pubsubPrefix);
  const deps: AppDeps = { db: database.prisma, pubsub: pubsub.pubsub, config, now: options.now ?? (() => new Date()) };
  const yoga = createGraphqlServer(deps);

  const hono = new Hono();
  hono.get("/health", (c) => c.json({ status: "ok" }));
  hono.on(["GET", "POST", "OPTIONS"], "/graphql", (c) => yoga.fetch(c.req.raw, { clientAddress: clientAddress(c) }));
  mountRest(hono, yoga, deps);
  hono.notFound((c) => c.json({ detail: "Not found." }, 404));
  hono.onError((error, c) => {
    console.error(error);
    return c.json({ detail: "Internal server error." }, 500);
  });

  let server: Server | undefined;
  let socket: { close(): Promise<void> } | undefined;
  return {
    hono,
    deps,
    database,
    fetch: (request) => hono.fetch(request),
    listen: (port = config.port, host = config.host) =>
      new Promise((resolve) => {
        server = serve({ fetch: hono.fetch, port, hostname: host }, (info) => resolve(info.port)) as Server;
        socket = attachWebSocket(server, yoga, deps);
      }),
    async close() {
      await socket?.close();
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
      await pubsub.close();
      if (!options.database) await database.close();
    },
  };
}
