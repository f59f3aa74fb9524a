import { type Client, createClient } from "graphql-ws";
import WebSocket from "ws";

export interface Delivery<T> {
  data?: T;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

/** Deliveries of one subscription, read one at a time with a deadline. */
export class Feed<T> {
  private readonly items: Array<Delivery<T>> = [];
  private waiter: (() => void) | undefined;
  private failure: unknown;
  completed = false;

  constructor(readonly stop: () => void) {}

  push(item: Delivery<T>) {
    this.items.push(item);
    this.wake();
  }

  fail(error: unknown) {
    this.failure = error;
    this.wake();
  }

  complete() {
    this.completed = true;
    this.wake();
  }

  private wake() {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** The next delivery; rejects after `timeoutMs`, or when the subscription fails or ends first. */
  async next(timeoutMs = 5_000): Promise<Delivery<T>> {
    const deadline = Date.now() + timeoutMs;
    while (!this.items.length) {
      if (this.failure !== undefined) throw this.failure;
      if (this.completed) throw new Error("subscription completed");
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no delivery within ${timeoutMs}ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.items.shift()!;
  }

  /** The data of the next delivery, failing on GraphQL errors. */
  async nextData(timeoutMs?: number): Promise<T> {
    const delivery = await this.next(timeoutMs);
    if (delivery.errors?.length || !delivery.data) {
      throw new Error(`delivery with errors: ${JSON.stringify(delivery.errors ?? delivery)}`);
    }
    return delivery.data;
  }

  /** Deliveries already received, removed from the feed. */
  drain(): Array<Delivery<T>> {
    return this.items.splice(0);
  }

  /** The error that ended the subscription, once it has. */
  async failed(timeoutMs = 5_000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    while (this.failure === undefined && Date.now() < deadline) await sleep(20);
    return this.failure;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A subscription only hears of changes published after the server has registered it (and, with Redis,
 * after Redis confirmed the channel). Fires `trigger` until a delivery arrives, then drops what came in.
 */
export async function primeFeed<T>(feed: Feed<T>, trigger: () => Promise<unknown>, attempts = 20): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    await trigger();
    try {
      await feed.next(500);
      await sleep(150);
      feed.drain();
      return;
    } catch (error) {
      if (!String(error).includes("no delivery")) throw error;
    }
  }
  throw new Error("the subscription never became active");
}

/**
 * graphql-ws clients and SSE feeds of one test file; `closeAll` in afterAll. The port may be a function,
 * read when a client is opened, for a server that starts after this is made (see `useSubscriptionApp`).
 */
export class SubscriptionClients {
  private readonly clients: Client[] = [];
  private readonly sseFeeds: Array<Feed<unknown>> = [];

  constructor(private readonly port: number | (() => number)) {}

  private host() {
    return `127.0.0.1:${typeof this.port === "number" ? this.port : this.port()}`;
  }

  open(token?: string | null, connectionParams?: Record<string, unknown>): Client {
    const client = createClient({
      url: `ws://${this.host()}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: connectionParams ?? (token ? { authorization: `Token ${token}` } : {}),
      retryAttempts: 0,
      lazy: true,
    });
    this.clients.push(client);
    return client;
  }

  subscribe<T>(client: Client, query: string, variables: Record<string, unknown> = {}): Feed<T> {
    let feed: Feed<T> | undefined = undefined;
    const unsubscribe = client.subscribe<T>(
      { query, variables },
      {
        next: (value) => feed!.push(value as Delivery<T>),
        error: (error) => feed!.fail(error),
        complete: () => feed!.complete(),
      },
    );
    feed = new Feed<T>(unsubscribe);
    return feed;
  }

  /** `subscribeOverSse` against this server; `closeAll` stops the feed. */
  async overSse<T>(token: string, query: string, variables: Record<string, unknown> = {}) {
    const feed = await subscribeOverSse<T>(`http://${this.host()}`, token, query, variables);
    this.sseFeeds.push(feed);
    return feed;
  }

  async closeAll() {
    for (const feed of this.sseFeeds.splice(0)) feed.stop();
    await Promise.all(this.clients.splice(0).map((client) => client.dispose()));
  }
}

/** The close code and reason the server answers a `connection_init` with, over a bare socket. */
export function closeOnInit(port: number, payload?: Record<string, unknown>) {
  return new Promise<{ code: number; reason: string; acknowledged: boolean }>((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, "graphql-transport-ws");
    let acknowledged = false;
    socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", ...(payload ? { payload } : {}) })));
    socket.on("message", (data) => {
      if (JSON.parse(String(data)).type === "connection_ack") {
        acknowledged = true;
        socket.close(1000, "done");
      }
    });
    socket.on("close", (code, reason) => resolve({ code, reason: reason.toString(), acknowledged }));
    socket.on("error", reject);
  });
}

/** A subscription over Server-Sent Events (yoga's `Accept: text/event-stream` on POST /graphql). */
export async function subscribeOverSse<T>(
  baseUrl: string,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Feed<T> & { status: number; contentType: string | null }> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { accept: "text/event-stream", "content-type": "application/json", authorization: `Token ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return Object.assign(serverSentEventsFeed<T>(response), { status: response.status, contentType: response.headers.get("content-type") });
}

/** The deliveries of an SSE response; stopping the feed cancels the body's reader, as a client going away does. */
export function serverSentEventsFeed<T>(response: Response): Feed<T> {
  const reader = response.body?.getReader();
  const feed = new Feed<T>(() => void reader?.cancel().catch(() => {}));
  if (reader) void readServerSentEvents(reader, feed);
  else feed.complete();
  return feed;
}

async function readServerSentEvents<T>(reader: ReadableStreamDefaultReader<Uint8Array>, feed: Feed<T>) {
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = message.split("\n");
        const event = lines.find((l) => l.startsWith("event:"))?.slice(6).trim();
        const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
        if (event === "complete") feed.complete();
        else if (data) feed.push(JSON.parse(data) as Delivery<T>);
      }
    }
    feed.complete();
  } catch (error) {
    if ((error as Error).name !== "AbortError") feed.fail(error);
    else feed.complete();
  }
}
