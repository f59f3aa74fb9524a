import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Handler } from "hono";
import { untranslatedReads } from "../platform/reads/sql/find.ts";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { PoolUsage } from "../platform/database/connect.ts";
import type { PubSub, PubSubOptions, TopicMap } from "../platform/messaging/pubsub.ts";
import type { EndReason } from "../platform/messaging/topic-hub.ts";
import type { Logger } from "./logger.ts";
import type { RelayOutcome, RelayReports } from "../broker/relay.ts";

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DISTINCT_OPERATION_NAMES = 200;
const OTHER = "other";

/** Client-chosen label values (operation names) stop adding series after `limit` distinct values. */
class BoundedLabel {
  private readonly seen = new Set<string>();

  constructor(private readonly limit: number) {}

  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.limit) return OTHER;
    this.seen.add(value);
    return value;
  }
}

let processRegistry: Registry | undefined;

/** Node's own metrics, one set per process and only once someone scrapes (tests build many apps). */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export interface HttpLabels {
  method: string;
  route: string;
  status: string;
}

export interface OperationLabels {
  operation: string;
  type: string;
  source: string;
}

/** The metrics of one app instance, in its own registry. */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly operationNames = new BoundedLabel(DISTINCT_OPERATION_NAMES);
  private readonly registers = [this.registry];

  private readonly httpRequests = new Counter({
    name: "gateway_http_requests_total",
    help: "HTTP requests served, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers: this.registers,
  });
  private readonly httpDuration = new Histogram({
    name: "gateway_http_request_duration_seconds",
    help: "Time to the response headers, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: SECONDS_BUCKETS,
    registers: this.registers,
  });
  private readonly operations = new Counter({
    name: "gateway_graphql_operations_total",
    help: "GraphQL operations executed or subscribed, by operation, type, source (rest, graphql, websocket) and outcome",
    labelNames: ["operation", "type", "source", "outcome"] as const,
    registers: this.registers,
  });
  private readonly operationDuration = new Histogram({
    name: "gateway_graphql_operation_duration_seconds",
    help: "Execution time of GraphQL queries and mutations, by operation, type and source",
    labelNames: ["operation", "type", "source"] as const,
    buckets: SECONDS_BUCKETS,
    registers: this.registers,
  });
  readonly websocketConnections = new Gauge({
    name: "gateway_websocket_open_connections",
    help: "Open WebSocket connections on /graphql",
    registers: this.registers,
  });
  private readonly subscriptions = new Gauge({
    name: "gateway_graphql_open_subscriptions",
    help: "GraphQL subscriptions currently delivering, by source (websocket, graphql = SSE)",
    labelNames: ["source"] as const,
    registers: this.registers,
  });
  private readonly eventsPublished = new Counter({
    name: "gateway_events_published_total",
    help: "Notifications published to pub/sub after commit, by topic",
    labelNames: ["topic"] as const,
    registers: this.registers,
  });
  private readonly publishFailures = new Counter({
    name: "gateway_publish_failures_total",
    help: "Notifications Redis did not take (unreachable beyond the retries), by topic: subscribers missed these changes",
    labelNames: ["topic"] as const,
    registers: this.registers,
  });
  private readonly subscriptionsEnded = new Counter({
    name: "gateway_subscriptions_ended_total",
    help: "Subscriptions the server ended by itself, by reason (interrupted: the Redis feed broke; too_slow: the client stopped reading)",
    labelNames: ["reason"] as const,
    registers: this.registers,
  });
  private readonly catchUps = new Counter({
    name: "gateway_subscription_catch_ups_total",
    help: "Times a subscription's queue overflowed while its client kept reading (the server was behind): it went on from the event log, by topic",
    labelNames: ["topic"] as const,
    registers: this.registers,
  });

  private readonly brokerMessages = new Counter({
    name: "gateway_broker_messages_total",
    help: "Site agents' messages taken from the broker outbox, by outcome (routed; unrouted: no such queue; rejected: the queue was full; undeliverable: its vhost is gone)",
    labelNames: ["outcome"] as const,
    registers: this.registers,
  });
  private readonly brokerFailures = new Counter({
    name: "gateway_broker_relay_failures_total",
    help: "Times the relay could not reach the broker (its messages stay in the outbox and are sent when it is back)",
    registers: this.registers,
  });

  constructor(poolUsage: () => PoolUsage) {
    new Counter({
      name: "gateway_sql_reads_untranslated_total",
      help: "Reads src/platform/reads/sql could not translate to one statement, which went to Prisma's client instead, by model (0 expected: SQL_READS_STRICT fails the tests on one)",
      labelNames: ["model"] as const,
      registers: this.registers,
      collect() {
        this.reset();
        for (const [model, reads] of untranslatedReads) this.inc({ model }, reads);
      },
    });
    new Gauge({
      name: "gateway_database_connections",
      help: "Database connections by state (total, idle; waiting = queries queued for a connection)",
      labelNames: ["state"] as const,
      registers: this.registers,
      collect() {
        this.reset();
        for (const [state, value] of Object.entries(poolUsage())) if (value !== undefined) this.set({ state }, value);
      },
    });
  }

  recordBrokerMessage(outcome: RelayOutcome) {
    this.brokerMessages.inc({ outcome });
  }

  recordBrokerFailure() {
    this.brokerFailures.inc();
  }

  recordHttpRequest(labels: HttpLabels, seconds: number) {
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  recordOperation(labels: OperationLabels, outcome: "ok" | "error", seconds?: number) {
    // Written out: V8 adds each property written after a spread at ~1 µs apiece.
    const bounded = { operation: this.operationNames.of(labels.operation), type: labels.type, source: labels.source };
    this.operations.inc({ operation: bounded.operation, type: bounded.type, source: bounded.source, outcome });
    if (seconds !== undefined) this.operationDuration.observe(bounded, seconds);
  }

  /** Counts a subscription as open until the returned function is called (once). */
  openSubscription(source: string): () => void {
    this.subscriptions.inc({ source });
    let open = true;
    return () => {
      if (open) this.subscriptions.dec({ source });
      open = false;
    };
  }

  recordPublish(topic: string) {
    this.eventsPublished.inc({ topic });
  }

  recordPublishFailure(topic: string) {
    this.publishFailures.inc({ topic });
  }

  recordSubscriptionEnded(reason: EndReason) {
    this.subscriptionsEnded.inc({ reason });
  }

  recordCatchUp(topic: string) {
    this.catchUps.inc({ topic });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async exposition(): Promise<string> {
    return `${await this.registry.metrics()}\n${await processMetrics().metrics()}`;
  }
}

/** The pub/sub the app hands to its services: every publish is counted by topic. */
export function countingPublishes<T extends TopicMap>(pubsub: PubSub<T>, metrics: GatewayMetrics): PubSub<T> {
  return {
    publish(topic, payload) {
      metrics.recordPublish(topic);
      pubsub.publish(topic, payload);
    },
    subscribe: (topic, accept, lag) => pubsub.subscribe(topic, accept, lag),
  };
}

/**
 * What the pub/sub reports: Redis errors and failed publishes logged, failed publishes, ended subscriptions and catch-ups
 * counted; a subscription's first catch-up logged (its next ones only counted).
 */
export function observePubSub(metrics: GatewayMetrics, logger: Logger): PubSubOptions {
  return {
    onRedisError: (err) => logger.warn({ err }, "redis connection error"),
    onPublishFailure: (topic, err) => {
      metrics.recordPublishFailure(topic);
      logger.error({ err, topic }, "publish failed: subscribers miss this change");
    },
    onSubscriptionEnded: (reason) => metrics.recordSubscriptionEnded(reason),
    onSubscriptionFellBehind: (topic, first) => {
      metrics.recordCatchUp(topic);
      if (first) logger.warn({ topic }, "server behind a subscription's changes: it goes on from the event log");
    },
  };
}

/** The broker relay's reports: every outcome counted, the ones that lose a message logged. */
export function brokerReports(metrics: GatewayMetrics, logger: Logger): RelayReports & { cleanupFailed(error: unknown): void } {
  return {
    delivered: (outcome, message) => {
      metrics.recordBrokerMessage(outcome);
      if (outcome !== "routed") logger.warn({ outcome, vhost: message.vhost, queue: message.queue, outboxId: message.id }, "site agent message dropped by the broker");
    },
    failed: (err, retryInMs) => {
      metrics.recordBrokerFailure();
      logger.warn({ err, retryInMs }, "broker unreachable: site agent messages wait in the outbox");
    },
    cleanupFailed: (err) => logger.warn({ err }, "removing broker logins of revoked tokens failed (retried by the sweep)"),
  };
}

/** Counts sockets upgraded on /graphql until they close, whatever the WebSocket server then does with them. */
export function countWebSocketConnections(server: Server, metrics: GatewayMetrics) {
  server.on("upgrade", (request: IncomingMessage, socket: Duplex) => {
    if (new URL(request.url ?? "/", "http://localhost").pathname !== "/graphql") return;
    metrics.websocketConnections.inc();
    socket.once("close", () => metrics.websocketConnections.dec());
  });
}

const digest = (value: string) => createHash("sha256").update(value).digest();

function bearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(presented), digest(token));
}

/** `GET /metrics` in Prometheus' text format; with a token, only for `Authorization: Bearer <token>`. */
export function metricsEndpoint(metrics: GatewayMetrics, token: string | undefined): Handler {
  return async (c) => {
    if (token && !bearerMatches(c.req.header("authorization"), token)) {
      return c.json({ detail: "Authentication credentials were not provided." }, 401, { "WWW-Authenticate": "Bearer" });
    }
    return c.body(await metrics.exposition(), 200, { "Content-Type": metrics.contentType });
  };
}
