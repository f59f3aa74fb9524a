import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { ValidationError } from "../platform/errors.ts";
import type { Topics } from "../topics.ts";
import type { EventCreatedPayload } from "./event-created.ts";
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

/** Oldest first, one more than MAX_REPLAY: `withinReplay` tells whether the client is too far behind. */
const REPLAY_PAGE = { orderBy: { id: "asc" }, take: MAX_REPLAY + 1 } as const;

function withinReplay<T>(rows: T[]): T[] {
  if (rows.length > MAX_REPLAY) throw replayTooLong();
  return rows;
}

/** The events recorded after `after` under `where`, as `eventCreated` delivered them. */
export async function eventsCreatedAfter(ctx: Context, after: number, where: Prisma.EventWhereInput): Promise<EventCreatedPayload[]> {
  const events = await ctx.db.event.findMany({ ...REPLAY_PAGE, where: { AND: [{ id: { gt: after } }, where] }, select: { id: true, eventType: true } });
  return withinReplay(events).map((event) => ({ eventId: event.id, eventType: event.eventType }));
}

/** What a subscriber of `topic` missed after event `after`: the changes published with the events since. */
export async function changesAfter<K extends ChangeTopic>(ctx: Context, topic: K, after: number): Promise<Array<Topics[K]>> {
  const events = await ctx.db.event.findMany({
    ...REPLAY_PAGE,
    where: { id: { gt: after }, change: { path: ["topic"], equals: topic } },
    select: { id: true, change: true },
  });
  // recordEvent alone writes `change`, from a RecordedChange of this topic.
  return withinReplay(events).map((event) => ({ ...(event.change as { payload: Omit<Topics[K], "eventId"> }).payload, eventId: event.id }) as Topics[K]);
}

/** A change subscription that, given `after`, first replays what the subscriber missed (see replayedThenLive). */
export function resumable<K extends ChangeTopic>(ctx: Context, topic: K, after: number | null | undefined, accept: (payload: Topics[K]) => boolean | Promise<boolean>) {
  const live = ctx.pubsub.subscribe(topic, accept);
  return after == null ? live : replayedThenLive(live, () => changesAfter(ctx, topic, after), accept);
}

export const afterArgument = { description: "Resume: first replay the changes after this event id (`event { eventId }` of the last one received)" };
