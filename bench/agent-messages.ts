import pg from "pg";
import { agentIdentity, restCaller, subscribeAsAgent } from "../test/support/agent-subscription.ts";
import { fetchJson, percentile } from "./load.ts";
import type { ServerProcess } from "./server-process.ts";
import type { Settings } from "./settings.ts";

/** The broker the scenario uses: BENCH_RABBITMQ_* (or the test suite's TEST_RABBITMQ_*) from scripts/rabbitmq-node.sh. */
export function benchBroker() {
  const pick = (name: string) => process.env[`BENCH_RABBITMQ_${name}`] || process.env[`TEST_RABBITMQ_${name}`];
  const [managementUrl, amqpUrl, webStompUrl] = [pick("MANAGEMENT_URL"), pick("URL"), pick("WEB_STOMP_URL")];
  return managementUrl && amqpUrl && webStompUrl ? { managementUrl, amqpUrl, webStompUrl } : undefined;
}
export type BenchBroker = NonNullable<ReturnType<typeof benchBroker>>;

/** The gateway's environment for the broker: the relay woken by each commit, polling every second as by default. */
export const brokerEnv = (broker: BenchBroker) => ({ RABBITMQ_MANAGEMENT_URL: broker.managementUrl, RABBITMQ_URL: broker.amqpUrl });

export interface AgentMessagesRow {
  /** Orders created one after another: REST write → the agent's STOMP consumer got its message. */
  sequential: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** From the REST answer (the write committed) to the message: what the outbox, relay and broker add. */
  afterAnswerP50Ms: number;
  afterAnswerP99Ms: number;
  /** Orders created by `clients` concurrent clients: committed writes and messages received per second. */
  clients: number;
  concurrentOrders: number;
  writesPerSecond: number;
  messagesPerSecond: number;
  missed: number;
  /** A backlog written straight into the outbox (as after a broker outage): messages per second the relay delivers. */
  backlog: number;
  backlogPerSecond: number;
}

const BACKLOG = 5_000;

const post = (baseUrl: string, path: string, token: string, body: unknown) =>
  fetchJson(`${baseUrl}${path}`, { method: "POST", headers: { authorization: `Token ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });

/** What the site agent does first: an identity, an `order` subscription, its queue, and a web-STOMP login. */
async function agentConsumer(baseUrl: string, token: string, broker: BenchBroker, offeringUuid: string) {
  const call = restCaller(fetch, baseUrl);
  const identityUuid = await agentIdentity(call, offeringUuid, token, "bench-agent");
  const { subscription, queue, consumer } = await subscribeAsAgent(call, broker, { identityUuid, offeringUuid, objectType: "order", token });
  return Object.assign(consumer, { vhost: subscription.user_uuid, queue: queue.queue_name });
}

/** Writes `count` messages for the consumer's queue into the outbox in one statement; resolves once committed. */
async function writeBacklog(databaseUrl: string, target: { vhost: string; queue: string }, count: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO broker_outbox (vhost, queue, body)
       SELECT $1, $2, json_build_object('order_uuid', 'backlog-' || i, 'order_state', 'pending-provider')::text FROM generate_series(1, $3::int) i`,
      [target.vhost, target.queue, count],
    );
  } finally {
    await client.end();
  }
}

/**
 * Site agents' messages: the time from a REST write (an order created) to the agent's STOMP consumer receiving its
 * message, one order at a time; then orders from concurrent clients, and the messages per second that arrive.
 */
export async function runAgentMessages(
  app: ServerProcess,
  databaseUrl: string,
  token: string,
  broker: BenchBroker,
  settings: Settings,
  log: (m: string) => void,
): Promise<AgentMessagesRow> {
  const auth = { headers: { authorization: `Token ${token}` } };
  const offering = (await fetchJson(`${app.baseUrl}/api/marketplace-provider-offerings/?field=uuid`, auth)).body[0].uuid as string;
  const project = (await fetchJson(`${app.baseUrl}/api/projects/?field=uuid`, auth)).body[0].uuid as string;
  const consumer = await agentConsumer(app.baseUrl, token, broker, offering);
  const order = (n: number) => post(app.baseUrl, "/api/marketplace-orders/", token, { offering, project, attributes: { name: `bench-${n}` } });
  const arrived = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const watch = setInterval(() => {
    for (const delivery of consumer.received.splice(0)) {
      const uuid = (delivery.body as { order_uuid: string }).order_uuid;
      const at = performance.now();
      arrived.set(uuid, at);
      waiting.get(uuid)?.(at);
    }
  }, 1);
  try {
    const sequential = settings.agentMessages;
    log(`agent messages: ${sequential} orders one at a time`);
    const latencies = new Float64Array(sequential);
    const afterAnswer = new Float64Array(sequential);
    for (let i = 0; i < sequential; i++) {
      const start = performance.now();
      const created = await order(i);
      const answered = performance.now();
      const uuid = created.body.uuid as string;
      const at = arrived.get(uuid) ?? (await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no message for order ${uuid} within 10 s`)), 10_000);
        waiting.set(uuid, (t) => (clearTimeout(timer), resolve(t)));
      }));
      waiting.delete(uuid);
      latencies[i] = at - start;
      afterAnswer[i] = Math.max(0, at - answered);
    }
    latencies.sort();
    afterAnswer.sort();

    const clients = 10;
    const total = settings.agentMessages * 5;
    log(`agent messages: ${total} orders from ${clients} clients`);
    arrived.clear();
    const started = performance.now();
    let next = 0;
    const uuids: string[] = [];
    await Promise.all(Array.from({ length: clients }, async () => {
      while (next < total) uuids.push((await order(sequential + next++)).body.uuid);
    }));
    const written = performance.now();
    const deadline = Date.now() + 30_000;
    while (uuids.some((u) => !arrived.has(u)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const last = Math.max(...uuids.map((u) => arrived.get(u) ?? 0));
    const received = uuids.filter((u) => arrived.has(u)).length;

    log(`agent messages: a backlog of ${BACKLOG} in the outbox`);
    arrived.clear();
    await writeBacklog(databaseUrl, consumer, BACKLOG);
    const backlogStart = performance.now();
    const backlogDeadline = Date.now() + 60_000;
    while (arrived.size < BACKLOG && Date.now() < backlogDeadline) await new Promise((r) => setTimeout(r, 5));
    const backlogEnd = Math.max(...arrived.values());
    return {
      sequential,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies[latencies.length - 1],
      afterAnswerP50Ms: percentile(afterAnswer, 50),
      afterAnswerP99Ms: percentile(afterAnswer, 99),
      clients,
      concurrentOrders: total,
      writesPerSecond: (total * 1000) / (written - started),
      messagesPerSecond: (received * 1000) / (last - started),
      missed: total - received + (BACKLOG - arrived.size),
      backlog: BACKLOG,
      backlogPerSecond: (arrived.size * 1000) / (backlogEnd - backlogStart),
    };
  } finally {
    clearInterval(watch);
    await consumer.close();
  }
}
