/**
 * The RabbitMQ node a test run may have (scripts/rabbitmq-node.sh prints the TEST_RABBITMQ_* lines; .ci/run exports
 * them for the PostgreSQL + Redis suite), and a small client of its management HTTP API for assertions and cleanup.
 * Tests that need the broker use `describe.skipIf(!broker)` with `const broker = brokerUnderTest()`.
 */

export interface BrokerUnderTest {
  /** `http://guest:guest@127.0.0.1:15673`: the management API, with the admin's credentials as userinfo. */
  managementUrl: string;
  /** `amqp://guest:guest@127.0.0.1:5673`. */
  amqpUrl: string;
  /** `ws://127.0.0.1:15675/rmqws-stomp`: web-STOMP, as the site agent connects. */
  webStompUrl: string;
}

/** The broker from TEST_RABBITMQ_MANAGEMENT_URL, TEST_RABBITMQ_URL and TEST_RABBITMQ_WEB_STOMP_URL; undefined unless all three are set. */
export function brokerUnderTest(): BrokerUnderTest | undefined {
  const managementUrl = process.env.TEST_RABBITMQ_MANAGEMENT_URL;
  const amqpUrl = process.env.TEST_RABBITMQ_URL;
  const webStompUrl = process.env.TEST_RABBITMQ_WEB_STOMP_URL;
  if (!managementUrl || !amqpUrl || !webStompUrl) return undefined;
  return { managementUrl, amqpUrl, webStompUrl };
}

/** The parts of `GET /api/queues/{vhost}/{name}` tests look at; the rest of the JSON is kept as it came. */
export interface QueueInfo {
  name: string;
  vhost: string;
  durable: boolean;
  auto_delete: boolean;
  arguments: Record<string, unknown>;
  /**
   * Ready + unacknowledged messages. Absent until the node's first statistics emission for a new queue
   * (the private node emits every 500 ms), so poll rather than read it right after a publish.
   */
  messages?: number;
  consumers?: number;
  [key: string]: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function queueInfo(value: unknown): QueueInfo {
  if (!isRecord(value) || typeof value.name !== "string" || typeof value.vhost !== "string" || !isRecord(value.arguments)) {
    throw new Error(`not a queue from the management API: ${JSON.stringify(value)}`);
  }
  const { name, vhost, arguments: args, durable, auto_delete, messages, consumers } = value;
  return {
    ...value,
    name,
    vhost,
    durable: durable === true,
    auto_delete: auto_delete === true,
    arguments: args,
    messages: typeof messages === "number" ? messages : undefined,
    consumers: typeof consumers === "number" ? consumers : undefined,
  };
}

const segment = (name: string) => encodeURIComponent(name);

/** The management API of one node, with basic auth taken from the URL's userinfo (fetch refuses URLs that carry it). */
export class ManagementApi {
  private readonly base: string;
  private readonly authorization: string;

  constructor(managementUrl: string) {
    const url = new URL(managementUrl);
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    this.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
    url.username = "";
    url.password = "";
    this.base = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  }

  /** A raw call: `path` starts with `/api/`. */
  request(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { authorization: this.authorization };
    if (body !== undefined) headers["content-type"] = "application/json";
    return fetch(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  private async json(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await this.request(method, path, body);
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    const parsed: unknown = await response.json();
    return parsed;
  }

  /** Whether `path` exists: true on 200, false on 404, an error otherwise. */
  private async exists(path: string): Promise<boolean> {
    const response = await this.request("GET", path);
    await response.body?.cancel();
    if (response.status === 404) return false;
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
    return true;
  }

  /** DELETE that also accepts 404 (already gone). */
  private async remove(path: string): Promise<void> {
    const response = await this.request("DELETE", path);
    const text = await response.text();
    if (!response.ok && response.status !== 404) throw new Error(`DELETE ${path}: ${response.status} ${text}`);
  }

  /** The queue as the management API shows it (`arguments`, `durable`, `messages`, …), or null when it does not exist. */
  async getQueue(vhost: string, name: string): Promise<QueueInfo | null> {
    const path = `/api/queues/${segment(vhost)}/${segment(name)}`;
    const response = await this.request("GET", path);
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return queueInfo(await response.json());
  }

  /** The queues of a vhost; an empty list when the vhost does not exist. */
  async listQueues(vhost: string): Promise<QueueInfo[]> {
    const path = `/api/queues/${segment(vhost)}`;
    const response = await this.request("GET", path);
    if (response.status === 404) {
      await response.body?.cancel();
      return [];
    }
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    const list: unknown = await response.json();
    if (!Array.isArray(list)) throw new Error(`GET ${path}: not a list`);
    return list.map(queueInfo);
  }

  userExists(name: string): Promise<boolean> {
    return this.exists(`/api/users/${segment(name)}`);
  }

  vhostExists(name: string): Promise<boolean> {
    return this.exists(`/api/vhosts/${segment(name)}`);
  }

  /** Deletes the vhost with its queues and permissions; a missing vhost is fine. */
  deleteVhost(name: string): Promise<void> {
    return this.remove(`/api/vhosts/${segment(name)}`);
  }

  /** Deletes a broker user; a missing one is fine. */
  deleteUser(name: string): Promise<void> {
    return this.remove(`/api/users/${segment(name)}`);
  }

  /**
   * Publishes a JSON payload to a queue through the default exchange (as Waldur publishes: routing key = queue name).
   * Resolves to whether the broker routed it to a queue.
   */
  async publish(vhost: string, queue: string, payload: unknown): Promise<boolean> {
    const result = await this.json("POST", `/api/exchanges/${segment(vhost)}/amq.default/publish`, {
      properties: { content_type: "application/json", delivery_mode: 2 },
      routing_key: queue,
      payload: JSON.stringify(payload),
      payload_encoding: "string",
    });
    return isRecord(result) && result.routed === true;
  }
}

let envApi: ManagementApi | undefined;

/** The management API of the broker under test; throws when there is none (guard tests with `skipIf(!broker)`). */
export function management(): ManagementApi {
  if (envApi) return envApi;
  const broker = brokerUnderTest();
  if (!broker) throw new Error("no broker under test: set TEST_RABBITMQ_MANAGEMENT_URL, TEST_RABBITMQ_URL and TEST_RABBITMQ_WEB_STOMP_URL");
  envApi = new ManagementApi(broker.managementUrl);
  return envApi;
}

export const getQueue = (vhost: string, name: string) => management().getQueue(vhost, name);
export const listQueues = (vhost: string) => management().listQueues(vhost);
export const userExists = (name: string) => management().userExists(name);
export const vhostExists = (name: string) => management().vhostExists(name);
export const deleteVhost = (name: string) => management().deleteVhost(name);
export const deleteUser = (name: string) => management().deleteUser(name);

/** Waldur's `create_queue` body; every PUT must repeat it exactly (400 `inequivalent arg` otherwise). */
export const WALDUR_QUEUE = {
  durable: true,
  auto_delete: false,
  arguments: {
    "x-message-ttl": 3600000,
    "x-max-length": 10000,
    "x-overflow": "reject-publish-dlx",
    "x-dead-letter-exchange": "",
    "x-dead-letter-routing-key": "waldur.dlq.messages",
  },
};
