import type { ExecutionResult } from "graphql";
import type { Context } from "graphql-ws";
import type { WebSocket } from "ws";
import { SUBSCRIBER_TOO_SLOW } from "../platform/messaging/topic-hub.ts";

/** How a graphql-ws connection whose client does not keep up is closed (4000–4999 are the application's own). */
export const SLOW_SUBSCRIBER_CLOSE = { code: 4008, reason: "Subscriber too slow." } as const;

const droppedAsTooSlow = (result: ExecutionResult) => result.errors?.some((error) => error.extensions?.code === SUBSCRIBER_TOO_SLOW) ?? false;

const isEndable = (subscription: unknown): subscription is AsyncGenerator =>
  typeof (subscription as AsyncGenerator | null)?.return === "function";

/**
 * graphql-ws' `onNext`, before each message: a connection whose socket holds more than `maxBytes` unsent (its client
 * stopped reading), or one of whose subscriptions the hub dropped as too slow (its queue overflowed while sending
 * waited for the socket), is closed with 4008 and its subscriptions ended, so neither ws' buffer nor the hub's
 * queues grow further. The message at hand is not sent (graphql-ws sends nothing on a closing socket).
 */
export function closeSlowSubscribers(maxBytes: number) {
  return <E extends { socket: WebSocket }>(ctx: Context<Record<string, unknown> | undefined, E>, _id: string, _payload: unknown, _args: unknown, result: ExecutionResult) => {
    const { socket } = ctx.extra;
    if (socket.bufferedAmount <= maxBytes && !droppedAsTooSlow(result)) return;
    if (socket.readyState === socket.OPEN) socket.close(SLOW_SUBSCRIBER_CLOSE.code, SLOW_SUBSCRIBER_CLOSE.reason);
    for (const subscription of Object.values(ctx.subscriptions)) if (isEndable(subscription)) void subscription.return(undefined);
  };
}
