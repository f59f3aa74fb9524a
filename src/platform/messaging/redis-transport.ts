import type { Redis } from "ioredis";
import type { TopicTransport } from "./topic-hub.ts";

export type RedisCommand = "publish" | "subscribe";

/**
 * Redis channels as a topic transport, on two connections (a subscribed connection can do nothing else). ioredis
 * keeps a command while it reconnects and rejects it after its retries; every such rejection goes to `failed`,
 * none is left unhandled (an unhandled rejection ends the process). Unsubscribing may fail unheard: the
 * channel goes with the connection, and a message on a channel nobody listens to any more is ignored.
 */
export function redisTransport(
  publishClient: Redis,
  subscribeClient: Redis,
  failed: (command: RedisCommand, channel: string, error: Error) => void,
): TopicTransport {
  const listeners = new Map<string, Set<(event: Event) => void>>();
  subscribeClient.on("message", (channel: string, message: string) => {
    const forChannel = listeners.get(channel);
    if (!forChannel) return;
    const event = new CustomEvent(channel, { detail: message === "" ? null : JSON.parse(message) });
    for (const listener of forChannel) listener(event);
  });
  return {
    addEventListener(channel, listener) {
      const forChannel = listeners.get(channel);
      if (forChannel) return void forChannel.add(listener);
      listeners.set(channel, new Set([listener]));
      subscribeClient.subscribe(channel).catch((error: Error) => failed("subscribe", channel, error));
    },
    removeEventListener(channel, listener) {
      const forChannel = listeners.get(channel);
      if (!forChannel?.delete(listener) || forChannel.size > 0) return;
      listeners.delete(channel);
      subscribeClient.unsubscribe(channel).catch(() => {});
    },
    dispatchEvent(event) {
      const detail = (event as CustomEvent).detail;
      const message = detail === undefined ? "" : JSON.stringify(detail);
      publishClient.publish(event.type, message).catch((error: Error) => failed("publish", event.type, error));
      return true;
    },
  };
}
