/**
 * A client process of the fan-out scenario (forked by bench/fanout.ts): holds many graphql-ws subscribers on bare
 * `ws` sockets (no graphql-ws client, no compression) and reports when each expected delivery reached them.
 *
 * Messages from the parent:
 *   { connect: { url, tokens, query, count, concurrency } }  open `count` sockets, `concurrency` handshakes at a time,
 *                             the tokens taken in turn;
 *                             `{n}` in the query becomes the subscriber's number
 *   { expect: { id, key } }   deliveries whose key (`<offeringUserUuid>:<state>`) is `key` count for transition `id`
 *   { report: { id } }        send what arrived for `id` so far (after a timeout)
 *   "close"                   close every socket and exit
 * Replies: { connected, failed, firstError? } (this request's sockets), { expecting: id }, { delivered: { id, times, complete } } where
 * `times` are epoch milliseconds (performance.timeOrigin + performance.now(), comparable across processes).
 */
import { performance } from "node:perf_hooks";
import WebSocket from "ws";

interface ConnectRequest {
  url: string;
  tokens: string[];
  query: string;
  count: number;
  concurrency: number;
}

const sockets: WebSocket[] = [];
let subscribed = 0;
/** Subscribers numbered by this worker, for documents of their own (`{n}` in the query: `<worker>_<number>`). */
let numbered = 0;
const WORKER = process.argv[2] ?? "0";
let expected: { id: number; key: string; times: number[]; reported: boolean } | undefined;
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send?.(message);

function deliveryKey(data: WebSocket.RawData): string | undefined {
  const message = JSON.parse(String(data));
  const change = message.type === "next" ? message.payload?.data?.offeringUserChanged : undefined;
  return change ? `${change.offeringUserUuid}:${change.state}` : undefined;
}

function onDelivery(data: WebSocket.RawData, lastSeen: { id: number }) {
  const at = now();
  if (!expected || lastSeen.id === expected.id || deliveryKey(data) !== expected.key) return;
  lastSeen.id = expected.id;
  expected.times.push(at);
  if (expected.times.length === subscribed && !expected.reported) {
    expected.reported = true;
    send({ delivered: { id: expected.id, times: expected.times, complete: true } });
  }
}

/** One subscriber: connection_init with the next token, then one subscription once acknowledged. */
function subscriber(request: ConnectRequest): Promise<void> {
  const n = ++numbered;
  const token = request.tokens[n % request.tokens.length];
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(request.url, "graphql-transport-ws", { perMessageDeflate: false });
    const lastSeen = { id: -1 };
    let acknowledged = false;
    socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Token ${token}` } })));
    socket.on("message", (data) => {
      if (acknowledged) return onDelivery(data, lastSeen);
      if (JSON.parse(String(data)).type !== "connection_ack") return;
      acknowledged = true;
      socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: request.query.replace("{n}", `${WORKER}_${n}`) } }));
      sockets.push(socket);
      subscribed += 1;
      resolve();
    });
    socket.on("error", (error) => reject(error));
    socket.on("close", (code) => (acknowledged ? undefined : reject(new Error(`closed with ${code} before connection_ack`))));
  });
}

async function connect(request: ConnectRequest) {
  const subscribedBefore = subscribed;
  let next = 0;
  let failed = 0;
  let firstError: string | undefined;
  const lane = async () => {
    while (next < request.count) {
      next += 1;
      await subscriber(request).catch((error: Error) => {
        failed += 1;
        firstError ??= error.message;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(request.concurrency, request.count) }, lane));
  send({ connected: subscribed - subscribedBefore, failed, firstError });
}

process.on("message", (message: any) => {
  if (message === "close") {
    for (const socket of sockets) socket.terminate();
    process.exit(0);
  }
  if (message.connect) void connect(message.connect);
  if (message.expect) {
    expected = { ...message.expect, times: [], reported: false };
    send({ expecting: message.expect.id });
  }
  const current = expected;
  if (message.report && current && current.id === message.report.id && !current.reported) {
    current.reported = true;
    send({ delivered: { id: current.id, times: current.times, complete: false } });
  }
});
process.on("disconnect", () => process.exit(0));
