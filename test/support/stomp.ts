import { Client, type IFrame, type StompHeaders } from "@stomp/stompjs";
import WebSocket from "ws";

/**
 * A STOMP-over-WebSocket consumer that connects the way Waldur's site agent does (waldur-site-agent
 * `event_processing/listener.py`; ../shared/reference/site-agent-events.md §1): STOMP 1.2 with 1.1/1.0 offered too,
 * CONNECT with `login`, `passcode` and `host: <vhost>`, heartbeats 10000/10000, then
 * SUBSCRIBE `destination:/amq/queue/<queue>`, `id:<queue>`, `ack:auto`. `/amq/queue` never declares, so the queue
 * must exist (else the broker closes the connection; see onWebSocketClose below).
 */

export interface StompLogin {
  /** `ws://127.0.0.1:15675/rmqws-stomp` */
  url: string;
  login: string;
  passcode: string;
  vhost: string;
}

export interface StompTarget extends StompLogin {
  queue: string;
}

export interface StompDelivery {
  /** The body parsed as JSON; the raw string when it is not JSON. */
  body: unknown;
  raw: string;
  headers: StompHeaders;
  /** As delivered: `/queue/<queue>`. */
  destination: string;
}

export interface StompConsumer {
  /** Everything delivered so far, in order (including what `next` already returned). */
  readonly received: StompDelivery[];
  /** The first delivery not yet returned by `next` that matches `predicate`; rejects after `timeoutMs` or when the connection fails. */
  next(predicate?: (delivery: StompDelivery) => boolean, timeoutMs?: number): Promise<StompDelivery>;
  close(): Promise<void>;
}

const PROTOCOLS = ["v12.stomp", "v11.stomp", "v10.stomp"];
const HEARTBEAT_MS = 10_000;

/** A client as the agent configures it; `opened` fires once the WebSocket is open (so a refusal can be told from an unreachable broker). */
function agentClient(target: StompLogin, timeoutMs: number, opened: () => void): Client {
  return new Client({
    webSocketFactory: () => {
      const socket = new WebSocket(target.url, PROTOCOLS);
      socket.once("open", opened);
      return socket;
    },
    connectHeaders: { login: target.login, passcode: target.passcode, host: target.vhost },
    heartbeatIncoming: HEARTBEAT_MS,
    heartbeatOutgoing: HEARTBEAT_MS,
    reconnectDelay: 0,
    connectionTimeout: timeoutMs,
  });
}

const frameError = (frame: IFrame) => new Error(`STOMP ERROR: ${frame.headers.message ?? ""} ${frame.body}`.trim());

function delivery(headers: StompHeaders, raw: string): StompDelivery {
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // not JSON: keep the string (the site agent would fail on it)
  }
  return { body, raw, headers, destination: headers.destination ?? "" };
}

/** Connects and subscribes as the site agent does; resolves once the broker has confirmed the SUBSCRIBE (a RECEIPT). */
export function stompConsumer(target: StompTarget, timeoutMs = 10_000): Promise<StompConsumer> {
  const received: StompDelivery[] = [];
  const returned = new Set<StompDelivery>();
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const waiter = wake;
    wake = undefined;
    waiter?.();
  };
  const fail = (error: Error) => {
    failure ??= error;
    notify();
  };

  const client = agentClient(target, timeoutMs, () => {});
  const consumer: StompConsumer = {
    received,
    async next(predicate = () => true, nextTimeoutMs = 5_000) {
      const deadline = Date.now() + nextTimeoutMs;
      for (;;) {
        const found = received.find((item) => !returned.has(item) && predicate(item));
        if (found) {
          returned.add(found);
          return found;
        }
        if (failure) throw failure;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching STOMP message on ${target.queue} within ${nextTimeoutMs}ms (${received.length} received)`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    async close() {
      await client.deactivate();
    },
  };

  return new Promise<StompConsumer>((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!error) return resolve(consumer);
      void client.deactivate({ force: true });
      reject(error);
    };
    const timer = setTimeout(() => settle(new Error(`STOMP consumer of ${target.queue} not subscribed within ${timeoutMs}ms`)), timeoutMs);

    let connected = false;
    client.onConnect = () => {
      connected = true;
      const receipt = `subscribed-${target.queue}`;
      client.watchForReceipt(receipt, () => settle());
      client.subscribe(
        `/amq/queue/${target.queue}`,
        (message) => {
          received.push(delivery(message.headers, message.body));
          notify();
        },
        { id: target.queue, ack: "auto", receipt },
      );
    };
    client.onStompError = (frame) => {
      const error = frameError(frame);
      fail(error);
      settle(error);
    };
    client.onWebSocketError = () => settle(new Error(`WebSocket error connecting to ${target.url}`));
    client.onWebSocketClose = (event: { code?: number; reason?: string }) => {
      // A SUBSCRIBE to a missing queue ends here, not in onStompError: web-STOMP 3.10.8 logs "STOMP error frame sent:
      // not_found" but closes the socket (1000 "STOMP died") before the frame reaches the client.
      const when = settled ? "" : connected ? " before the SUBSCRIBE was confirmed (does the queue exist?)" : " before CONNECTED";
      const error = new Error(`STOMP connection to ${target.url} closed${when} (${event.code ?? "?"} ${event.reason ?? ""})`.trim());
      fail(error);
      settle(error);
    };
    client.activate();
  });
}

/**
 * Whether the broker refuses this login (an ERROR frame, or the socket closed before CONNECTED).
 * Resolves false when it connects; rejects when the WebSocket cannot be opened at all or nothing happens in time.
 */
export function stompLoginFails(login: StompLogin, timeoutMs = 10_000): Promise<boolean> {
  let opened = false;
  const client = agentClient(login, timeoutMs, () => {
    opened = true;
  });
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: boolean | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void client.deactivate({ force: true }).then(() => (outcome instanceof Error ? reject(outcome) : resolve(outcome)));
    };
    const timer = setTimeout(() => settle(new Error(`STOMP login to ${login.url}: no answer within ${timeoutMs}ms`)), timeoutMs);
    client.onConnect = () => settle(false);
    client.onStompError = () => settle(true);
    client.onWebSocketClose = () => settle(opened ? true : new Error(`could not open a WebSocket to ${login.url}`));
    client.activate();
  });
}
