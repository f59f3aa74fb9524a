import type { BrokerConnection } from "../platform/settings/broker-settings.ts";

/** Waldur's arguments for every agent queue; a queue declared with others is refused (`inequivalent arg`). */
export const AGENT_QUEUE_ARGUMENTS = {
  "x-message-ttl": 3_600_000,
  "x-max-length": 10_000,
  "x-overflow": "reject-publish-dlx",
  "x-dead-letter-exchange": "",
  "x-dead-letter-routing-key": "waldur.dlq.messages",
} as const;

const FULL_ACCESS = { configure: ".*", write: ".*", read: ".*" };
const TIMEOUT_MS = 5_000;

/** The broker refused a call or could not be reached. */
export class BrokerError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** RabbitMQ's management HTTP API, for what AMQP cannot do: vhosts, users, permissions. Every call is idempotent. */
export class BrokerManagement {
  private readonly authorization: string;

  constructor(private readonly connection: Pick<BrokerConnection, "managementUrl" | "username" | "password">) {
    this.authorization = `Basic ${Buffer.from(`${connection.username}:${connection.password}`).toString("base64")}`;
  }

  private async call(method: string, path: string, body?: unknown, accept: number[] = []): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.connection.managementUrl}/api/${path}`, {
        method,
        headers: { authorization: this.authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new BrokerError(`RabbitMQ management API unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok && !accept.includes(response.status)) {
      const detail = (await response.text()).slice(0, 300);
      throw new BrokerError(`RabbitMQ ${method} /api/${path} answered ${response.status}: ${detail}`, response.status);
    }
    return response;
  }

  /** A vhost with the administrator allowed everything in it (publishing needs that, and a vhost may pre-exist). */
  async ensureVhost(vhost: string) {
    await this.call("PUT", `vhosts/${encodeURIComponent(vhost)}`);
    await this.call("PUT", `permissions/${encodeURIComponent(vhost)}/${encodeURIComponent(this.connection.username)}`, FULL_ACCESS);
  }

  /** A login for one subscription, its password the agent's token, allowed into one vhost (set again on every call). */
  async ensureUser(vhost: string, username: string, password: string) {
    await this.call("PUT", `users/${encodeURIComponent(username)}`, { password, tags: "" });
    await this.call("PUT", `permissions/${encodeURIComponent(vhost)}/${encodeURIComponent(username)}`, FULL_ACCESS);
  }

  async ensureQueue(vhost: string, queue: string) {
    await this.call("PUT", `queues/${encodeURIComponent(vhost)}/${encodeURIComponent(queue)}`, {
      durable: true,
      auto_delete: false,
      arguments: AGENT_QUEUE_ARGUMENTS,
    });
  }

  async deleteUser(username: string) {
    await this.call("DELETE", `users/${encodeURIComponent(username)}`, undefined, [404]);
  }

  async deleteQueue(vhost: string, queue: string) {
    await this.call("DELETE", `queues/${encodeURIComponent(vhost)}/${encodeURIComponent(queue)}`, undefined, [404]);
  }

  async deleteVhost(vhost: string) {
    await this.call("DELETE", `vhosts/${encodeURIComponent(vhost)}`, undefined, [404]);
  }

  /** The broker's users by name (the sweep compares them with the subscriptions that still exist). */
  async userNames(): Promise<string[]> {
    const users: unknown = await (await this.call("GET", "users?columns=name")).json();
    return Array.isArray(users) ? users.flatMap((user) => (typeof user?.name === "string" ? [user.name] : [])) : [];
  }

  /** The vhosts a login may use. */
  async vhostsOf(username: string): Promise<string[]> {
    const response = await this.call("GET", `users/${encodeURIComponent(username)}/permissions`, undefined, [404]);
    if (response.status === 404) return [];
    const permissions: unknown = await response.json();
    return Array.isArray(permissions) ? permissions.flatMap((p) => (typeof p?.vhost === "string" ? [p.vhost] : [])) : [];
  }

  async queueNames(vhost: string): Promise<string[]> {
    const response = await this.call("GET", `queues/${encodeURIComponent(vhost)}?columns=name`, undefined, [404]);
    if (response.status === 404) return [];
    const queues: unknown = await response.json();
    return Array.isArray(queues) ? queues.flatMap((queue) => (typeof queue?.name === "string" ? [queue.name] : [])) : [];
  }
}
