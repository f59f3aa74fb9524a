import { followRoleChanges, ROLE_CHANGE_EVENTS } from "./offering-users/allocations.ts";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { DestinationStream } from "pino";
import { mountRest } from "../rest-adapter/app.ts";
import type { AppDeps } from "./context.ts";
import { REST_API, TALLY_TABLES } from "./modules.ts";
import { internalSchema } from "./schema.ts";
import { type Config, loadConfig } from "./platform/settings/config.ts";
import { type Database, openDatabase } from "./platform/database/connect.ts";
import { applyMigrations } from "./platform/database/migrations.ts";
import { useOperationObservation } from "./observability/graphql-plugin.ts";
import { readinessEndpoint } from "./observability/health.ts";
import { observeHttp } from "./observability/http.ts";
import { createLogger, type Logger } from "./observability/logger.ts";
import { brokerReports, countingPublishes, countWebSocketConnections, GatewayMetrics, metricsEndpoint, observePubSub } from "./observability/metrics.ts";
import { openPubSub, type PubSubHandle } from "./platform/messaging/pubsub.ts";
import type { Topics } from "./platform/messaging/topics.ts";
import { clearGrantsAfter, watchGrantChanges } from "./auth/grants-cache.ts";
import { TokenSessions, watchTokenSessions } from "./auth/tokens-sessions.ts";
import { openTokenBuckets } from "./platform/throttling/token-bucket.ts";
import { trackRequests } from "./server/http-drain.ts";
import { stoppableRequests } from "./server/stopped-requests.ts";
import { WriteGate } from "./platform/database/write-gate.ts";
import { attachWebSocket } from "./server/websocket.ts";
import { clientAddress } from "./server/client-address.ts";
import { unsentResponseBytes } from "./server/unsent-bytes.ts";
import { limitRequestTarget } from "./server/request-target.ts";
import { limitBody } from "./server/body-limit.ts";
import { corsMiddleware } from "./server/cors.ts";
import { allowedHostsOnly } from "./server/hosts.ts";
import { securityHeaders } from "./server/security-headers.ts";
import { createGraphqlServer, requestContext, wholeJson } from "./server/yoga.ts";
import { preparedOperations } from "./server/prepared-operations.ts";
import { mountGraphiQLAssets } from "./server/graphiql.ts";
import { mountLanding } from "./server/landing.ts";
import { mountDashboard } from "./dashboard/serve.ts";
import { agentsHearOf, followForAgents } from "./event-subscriptions/fan-out.ts";
import { foldTalliesEvery } from "./platform/database/tallies.ts";

/** How often the tallies written since the last fold are folded (one row per key: offering and state, event type). */
const TALLY_FOLD_MS = 10_000;

export const MIGRATIONS_DIR = new URL("../prisma/migrations", import.meta.url).pathname;

export interface App {
  hono: Hono;
  deps: AppDeps;
  database: Database;
  logger: Logger;
  metrics: GatewayMetrics;
  /** The pub/sub behind `deps.pubsub`, with its subscriber queues' lengths. */
  pubsub: PubSubHandle<Topics>;
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
  /** Where the JSON log lines go; stdout by default. */
  logDestination?: DestinationStream;
}

/** Builds the whole service: database (migrated), pub/sub, GraphQL, REST adapter and WebSocket transport. */
export async function createApp(options: AppOptions = {}): Promise<App> {
  const config = { ...loadConfig(), ...options.config };
  const logger = createLogger(config.logLevel, options.logDestination);
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.databasePoolSize,
      preparedStatements: config.databasePreparedStatements,
      commitGroups: config.databaseCommitGroups,
      statementTimeoutMs: config.databaseStatementTimeoutMs,
      transactionTimeoutMs: config.databaseTransactionTimeoutMs,
      onIdleConnectionError: (err) => logger.warn({ err }, "idle database connection lost"),
    }));
  await applyMigrations(database.sql, MIGRATIONS_DIR);
  const metrics = new GatewayMetrics(database.poolUsage);
  const pubsub = openPubSub<Topics>(config.redisUrl, {
    prefix: config.pubsubPrefix,
    limits: { maxMessages: config.subscriptionQueueMaxMessages, maxBytes: config.subscriptionQueueMaxBytes },
    ...observePubSub(metrics, logger),
  });
  // The broker's modules (amqplib) are loaded only when a broker is configured.
  const agentBroker =
    config.broker &&
    (await import("./event-subscriptions/runtime.ts")).openAgentBroker(config.broker, { db: database.prisma, pubsub: pubsub.pubsub }, brokerReports(metrics, logger));
  const writeGate = new WriteGate(database.cancelBackend);
  const deps: AppDeps = {
    db: database.prisma,
    pubsub: countingPublishes(pubsub.pubsub, metrics),
    config,
    now: options.now ?? (() => new Date()),
    buckets: openTokenBuckets(config.redisUrl, config.pubsubPrefix),
    sessions: new TokenSessions(config.websocketMaxConnectionsPerUser, config.tokenCacheMs),
    broker: agentBroker?.broker,
    followEvent: {
      follow: async (ctx, tx, outbox, event) => {
        clearGrantsAfter(ctx.sessions.grants, outbox, event.type);
        if (agentBroker) await followForAgents(ctx, tx, outbox, event);
        await followRoleChanges(ctx, tx, outbox, event);
      },
      writesFor: (type) => ROLE_CHANGE_EVENTS.has(type) || (Boolean(agentBroker) && agentsHearOf(type)),
    },
    writeGate,
  };
  const stopGrantWatch = watchGrantChanges(deps.pubsub, deps.sessions.grants);
  const tokenWatch = watchTokenSessions(deps, deps.sessions, config.websocketTokenCheckMs, (err) =>
    logger.warn({ err }, "checking the tokens of open connections failed"),
  );
  const tallyFolding = foldTalliesEvery(database.prisma, TALLY_TABLES, TALLY_FOLD_MS, (err) =>
    logger.warn({ err }, "folding tallies failed"),
  );
  const yoga = createGraphqlServer(deps, [useOperationObservation(metrics, logger)]);

  const hono = new Hono();
  const restPaths = new Set<string>();
  hono.use("*", observeHttp({ logger, metrics, canonicalRoute: (pattern) => (restPaths.has(`${pattern}/`) ? `${pattern}/` : pattern) }));
  hono.use("*", securityHeaders(config.publicUrl));
  const stoppable = stoppableRequests(writeGate);
  hono.use("*", stoppable.middleware);
  hono.use("*", allowedHostsOnly(config.allowedHosts));
  // Preflights are answered here, before routing and authentication.
  hono.use("*", corsMiddleware(config));
  // Before every route (REST paths and /graphql alike), so an over-long URI costs no routing and no GraphQL work.
  hono.use("*", limitRequestTarget());
  hono.get("/health", (c) => c.json({ status: "ok" }));
  hono.get("/health/ready", readinessEndpoint({ sql: database.sql, migrationsDir: MIGRATIONS_DIR, redisUrl: config.redisUrl }, logger));
  if (config.metricsToken || !config.production) hono.get("/metrics", metricsEndpoint(metrics, config.metricsToken));
  else logger.warn("GET /metrics is off (404): NODE_ENV=production requires METRICS_TOKEN");
  if (config.graphiql) mountGraphiQLAssets(hono);
  mountLanding(hono, { graphiql: config.graphiql, publicUrl: config.publicUrl });
  mountDashboard(hono);
  hono.post("/graphql", limitBody(config.maxBodyBytes));
  const answerPrepared = preparedOperations(yoga, config, (request, served) => requestContext(deps, request, served));
  hono.on(["GET", "POST", "OPTIONS"], "/graphql", async (c) => {
    const served = { clientAddress: clientAddress(c, config), writes: c.get("writeScope"), unsentBytes: unsentResponseBytes(c) };
    const prepared = await answerPrepared(c.req.raw, served);
    return "answer" in prepared ? prepared.answer : wholeJson(await yoga.fetch(prepared.handOver, served));
  });
  const restRoutes = mountRest(hono, {
    api: REST_API,
    schema: internalSchema,
    pipeline: yoga,
    contextOf: (c) => requestContext(deps, c.req.raw, { clientAddress: clientAddress(c, deps.config), writes: c.get("writeScope") }),
    deps,
  });
  for (const route of restRoutes) restPaths.add(route.path);
  hono.notFound((c) => c.json({ detail: "Not found." }, 404));
  // observeHttp logs the error (c.error) with the request's line.
  hono.onError((_error, c) => c.json({ detail: "Internal server error." }, 500));

  let socket: { close(): Promise<void> } | undefined;
  let requests: ReturnType<typeof trackRequests> | undefined;
  return {
    hono,
    deps,
    database,
    logger,
    metrics,
    pubsub,
    fetch: (request) => hono.fetch(request),
    listen: (port = config.port, host = config.host) =>
      new Promise((resolve, reject) => {
        // Followed only once bound (no connection arrives before): a failed listen leaves nothing to drain, and
        // graphql-ws would otherwise hear it as a WebSocket server error.
        const listening = serve({ fetch: hono.fetch, port, hostname: host }, (info) => {
          listening.off("error", reject);
          requests = trackRequests(listening);
          socket = attachWebSocket(listening, yoga, deps);
          countWebSocketConnections(listening, metrics);
          resolve(info.port);
        }) as Server;
        listening.once("error", reject);
      }),
    /**
     * Graceful: new connections are refused, requests in flight get up to SHUTDOWN_GRACE_MS, then are stopped (see
     * stoppableRequests); subscriptions end (1001).
     */
    async close() {
      const [drained] = await Promise.all([requests?.drain(config.shutdownGraceMs, stoppable.stop), socket?.close()]);
      if (!requests) stoppable.stop();
      if (drained) logger[drained.stopped ? "warn" : "info"](drained, "http server drained");
      await yoga.dispose();
      await agentBroker?.close();
      await deps.buckets.close();
      stopGrantWatch();
      await tokenWatch.close();
      await tallyFolding.close();
      await pubsub.close();
      if (!options.database) await database.close();
    },
  };
}
