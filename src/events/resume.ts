import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { ValidationError } from "../platform/errors.ts";
import type { Topics } from "../topics.ts";
import type { ChangeTopic } from "./record.ts";

/** The most events a subscription replays when it resumes; a client further behind re-reads instead. */
export const MAX_REPLAY = 1000;

export const replayTooLong = () =>
  new ValidationError(
    { after: [`More than ${MAX_REPLAY} changes were missed.`] },
    `More than ${MAX_REPLAY} changes were missed: re-read the data and subscribe without \`after\`.`,
  );

/**
 * What a subscriber missed after event `after`, from the event log, then the live stream: the live stream is open
 * before the log is read, so nothing falls between them, and a change already replayed is not delivered twice
 * (compared by event id, not by order, as transactions may commit out of id order).
 */
export async function* replayedThenLive<P extends { eventId: number }>(
  live: AsyncIterableIterator<P>,
  missed: () => Promise<P[]>,
  accept: (payload: P) => boolean | Promise<boolean>,
): AsyncGenerator<P> {
  try {
    const replayed = new Set<number>();
    for (const payload of await missed()) {
      replayed.add(payload.eventId);
      if (await accept(payload)) yield payload;
    }
    for await (const payload of live) if (!replayed.has(payload.eventId)) yield payload;
  } finally {
    await live.return?.();
  }
}

/** The log's events after `after` (at most MAX_REPLAY, else the client must re-read), oldest first. */
export interface LoggedEvent {
  id: number;
  eventType: string;
  context: unknown;
  scopes: Array<{ scopeType: string; scopeId: string }>;
}

export async function eventsAfter<T>(ctx: Context, after: number, where: Prisma.EventWhereInput, toPayload: (event: LoggedEvent) => T | null) {
  const events = await ctx.db.event.findMany({
    where: { AND: [{ id: { gt: after } }, where] },
    orderBy: { id: "asc" },
    take: MAX_REPLAY + 1,
    select: { id: true, eventType: true, context: true, scopes: { select: { scopeType: true, scopeId: true } } },
  });
  if (events.length > MAX_REPLAY) throw replayTooLong();
  return events.flatMap((event) => toPayload(event) ?? []);
}

/** What a subscriber of `topic` missed after event `after`: the changes published with the events since, oldest first. */
export async function changesAfter<K extends ChangeTopic>(ctx: Context, topic: K, after: number): Promise<Array<Topics[K]>> {
  const events = await ctx.db.event.findMany({
    where: { id: { gt: after }, change: { path: ["topic"], equals: topic } },
    orderBy: { id: "asc" },
    take: MAX_REPLAY + 1,
    select: { id: true, change: true },
  });
  if (events.length > MAX_REPLAY) throw replayTooLong();
  // recordEvent alone writes `change`, from a RecordedChange of this topic.
  return events.map((event) => ({ ...(event.change as { payload: Omit<Topics[K], "eventId"> }).payload, eventId: event.id }) as Topics[K]);
}

/** A change subscription that, given `after`, first replays what the subscriber missed (see replayedThenLive). */
export function resumable<K extends ChangeTopic>(ctx: Context, topic: K, after: number | null | undefined, accept: (payload: Topics[K]) => boolean | Promise<boolean>) {
  const live = ctx.pubsub.subscribe(topic, accept);
  return after == null ? live : replayedThenLive(live, () => changesAfter(ctx, topic, after), accept);
}

export const afterArgument = { description: "Resume: first replay the changes after this event id (`event { eventId }` of the last one received)" };
