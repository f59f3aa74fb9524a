import { connect, type ChannelModel, type ConfirmChannel, type Message } from "amqplib";
import type { BrokerConnection } from "../platform/settings/broker-settings.ts";

/** What became of one message: taken by its queue, no such queue (`mandatory` returned it), or the queue was full. */
export type PublishOutcome = "routed" | "unrouted" | "rejected";

/** Not delivered because the vhost is gone or refused (its user was deleted): retrying will not help. */
export class VhostRefusedError extends Error {}

interface VhostChannel {
  model: ChannelModel;
  channel: ConfirmChannel;
  /** Messages the broker handed back as unroutable, by correlation id, until their confirm arrives. */
  returned: Set<string>;
  /** Publishes waiting for their confirm: failed together if the channel closes first. */
  waiting: Set<(error: Error) => void>;
  lastUsed: number;
  /** Drops it from the open connections when it breaks. */
  onLost?: () => void;
}

const MAX_OPEN_VHOSTS = 50;
const IDLE_CLOSE_MS = 60_000;
const REFUSED = /NOT_ALLOWED|ACCESS_REFUSED|access to vhost/i;

/**
 * Publishes over AMQP with publisher confirms. An AMQP connection belongs to one vhost and every subscriber has its
 * own vhost, so one connection per vhost is kept while in use; past 50, the least recently used one closes.
 */
export class AmqpPublisher {
  /** In order of last use: the first entry is the least recently used. */
  private readonly open = new Map<string, Promise<VhostChannel>>();
  private readonly idleTimer: NodeJS.Timeout;
  private sequence = 0;

  constructor(private readonly connection: Pick<BrokerConnection, "amqpUrl" | "username" | "password">) {
    this.idleTimer = setInterval(() => void this.closeIdle(), IDLE_CLOSE_MS).unref();
  }

  /** Resolves once the broker confirmed the message; rejects when it could not be handed over (retry later). */
  async publish(vhost: string, queue: string, body: string, messageId: string): Promise<PublishOutcome> {
    const open = await this.channel(vhost);
    open.lastUsed = Date.now();
    const tag = `${messageId}.${++this.sequence}`;
    return new Promise((resolve, reject) => {
      open.waiting.add(reject);
      open.channel.publish(
        "",
        queue,
        Buffer.from(body),
        { persistent: true, mandatory: true, contentType: "application/json", messageId, correlationId: tag },
        (err) => {
          open.waiting.delete(reject);
          const returned = open.returned.delete(tag);
          resolve(err ? "rejected" : returned ? "unrouted" : "routed");
        },
      );
    });
  }

  private channel(vhost: string): Promise<VhostChannel> {
    const existing = this.open.get(vhost);
    if (existing) {
      this.open.delete(vhost);
      this.open.set(vhost, existing);
      return existing;
    }
    if (this.open.size >= MAX_OPEN_VHOSTS) {
      const [oldest] = this.open.keys();
      this.forget(oldest, true);
    }
    const opening = this.connect(vhost);
    this.open.set(vhost, opening);
    opening.then(
      (open) => (open.onLost = () => this.forget(vhost, false, opening)),
      () => this.forget(vhost, false, opening),
    );
    return opening;
  }

  private forget(vhost: string, close: boolean, only?: Promise<VhostChannel>) {
    const open = this.open.get(vhost);
    if (!open || (only && open !== only)) return;
    this.open.delete(vhost);
    if (close) void open.then((o) => o.model.close()).catch(() => undefined);
  }

  private async connect(vhost: string): Promise<VhostChannel> {
    const url = new URL(this.connection.amqpUrl);
    let model: ChannelModel;
    try {
      model = await connect(
        {
          protocol: url.protocol.replace(":", ""),
          hostname: url.hostname,
          port: url.port ? Number(url.port) : undefined,
          username: this.connection.username,
          password: this.connection.password,
          vhost,
          heartbeat: 30,
        },
        { timeout: 5_000 },
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw REFUSED.test(message) ? new VhostRefusedError(message) : error;
    }
    const channel = await model.createConfirmChannel();
    const open: VhostChannel = { model, channel, returned: new Set(), waiting: new Set(), lastUsed: Date.now() };
    channel.on("return", (message: Message) => {
      const tag: unknown = message.properties.correlationId;
      if (typeof tag === "string") open.returned.add(tag);
    });
    const lost = (error?: Error) => {
      open.onLost?.();
      const reason = error ?? new Error("AMQP connection closed before the broker confirmed");
      for (const fail of open.waiting) fail(reason);
      open.waiting.clear();
    };
    model.on("close", lost);
    model.on("error", lost);
    channel.on("close", () => lost());
    channel.on("error", lost);
    return open;
  }

  private async closeIdle() {
    const before = Date.now() - IDLE_CLOSE_MS;
    for (const [vhost, opening] of [...this.open.entries()]) {
      const open = await opening.catch(() => undefined);
      if (open && open.lastUsed < before && open.waiting.size === 0) this.forget(vhost, true, opening);
    }
  }

  async close() {
    clearInterval(this.idleTimer);
    const open = [...this.open.values()];
    this.open.clear();
    await Promise.all(open.map((o) => o.then((v) => v.model.close()).catch(() => undefined)));
  }
}
