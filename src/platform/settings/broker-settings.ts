/** Where the RabbitMQ broker for site agents is, when one is configured (see the README's "Real-time site agents"). */
export interface BrokerSettings {
  broker: BrokerConnection | undefined;
}

export interface BrokerConnection {
  /** The management HTTP API's base, e.g. `http://127.0.0.1:15672` (vhosts, users, permissions, queues). */
  managementUrl: string;
  /** AMQP 0-9-1, e.g. `amqp://127.0.0.1:5672`: messages are published over it with publisher confirms. */
  amqpUrl: string;
  /** The broker's administrator, who provisions and publishes. */
  username: string;
  password: string;
  /** The broker's web-STOMP endpoint, proxied at `/rmqws-stomp` on our own port when set. */
  webStompUrl: string | undefined;
  /** How often the relay looks for messages no commit told it about (another instance's, or left by a crash). */
  relayIntervalMs: number;
  /** How long a relay holds the messages it took before another instance may take them again. */
  claimSeconds: number;
  /** The longest wait between attempts while the broker is unreachable (the wait doubles from half a second). */
  retryMaxMs: number;
}

const parsedUrl = (name: string, value: string, protocols: string[]) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} is not a URL`);
  }
  if (!protocols.includes(url.protocol)) throw new Error(`${name} must be a ${protocols.map((p) => p.replace(":", "://")).join(" or ")} URL`);
  return url;
};

const positive = (name: string, value: string | undefined, fallback: number) => {
  const parsed = value === undefined || value.trim() === "" ? fallback : Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} must be a positive number`);
  return parsed;
};

const withoutCredentials = (url: URL) => {
  const bare = new URL(url);
  bare.username = "";
  bare.password = "";
  return bare.toString().replace(/\/+$/, "");
};

/**
 * RABBITMQ_MANAGEMENT_URL and RABBITMQ_URL together turn the broker on; RABBITMQ_USER / RABBITMQ_PASSWORD, or the
 * management URL's user info, name the administrator. Without them, event subscriptions answer "not configured".
 */
export function loadBrokerSettings(env: NodeJS.ProcessEnv = process.env): BrokerSettings {
  const management = env.RABBITMQ_MANAGEMENT_URL?.trim();
  const amqp = env.RABBITMQ_URL?.trim();
  if (!management && !amqp) return { broker: undefined };
  if (!management || !amqp) throw new Error("Set both RABBITMQ_MANAGEMENT_URL and RABBITMQ_URL for the site agents' broker (or neither)");
  const managementUrl = parsedUrl("RABBITMQ_MANAGEMENT_URL", management, ["http:", "https:"]);
  const amqpUrl = parsedUrl("RABBITMQ_URL", amqp, ["amqp:", "amqps:"]);
  const username = env.RABBITMQ_USER?.trim() || decodeURIComponent(managementUrl.username) || decodeURIComponent(amqpUrl.username);
  const password = env.RABBITMQ_PASSWORD ?? (decodeURIComponent(managementUrl.password) || decodeURIComponent(amqpUrl.password));
  if (!username || !password) throw new Error("The broker's administrator is not set: RABBITMQ_USER and RABBITMQ_PASSWORD (or user info in RABBITMQ_MANAGEMENT_URL)");
  const webStomp = env.RABBITMQ_WEB_STOMP_URL?.trim();
  return {
    broker: {
      managementUrl: withoutCredentials(managementUrl),
      amqpUrl: withoutCredentials(amqpUrl),
      username,
      password,
      webStompUrl: webStomp ? parsedUrl("RABBITMQ_WEB_STOMP_URL", webStomp, ["ws:", "wss:"]).toString() : undefined,
      relayIntervalMs: positive("BROKER_RELAY_INTERVAL_MS", env.BROKER_RELAY_INTERVAL_MS, 1000),
      claimSeconds: positive("BROKER_CLAIM_SECONDS", env.BROKER_CLAIM_SECONDS, 30),
      retryMaxMs: positive("BROKER_RETRY_MAX_MS", env.BROKER_RETRY_MAX_MS, 30_000),
    },
  };
}
