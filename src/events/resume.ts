import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { ValidationError } from "../platform/errors.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import type { EventCreatedPayload } from "./event-created.ts";
import { followThroughLog, type LogPage } from "./catch-up.ts";
import type { ChangeTopic } from "./record.ts";
import { findMany } from "../platform/reads/sql/find.ts";

/** The most events a subscription replays when it resumes; a client further behind re-reads instead. */
export const MAX_REPLAY = 1000;

export const replayTooLong = () =>
  new ValidationError(
    { after: [`More than ${MAX_REPLAY} changes were missed.`] },
    `More than ${MAX_REPLAY} changes were missed: re-read the data and subscribe without \`after\`.`,
  );

/** Oldest first: a resuming client's replay, or a page of a catch-up (see followThroughLog). */
const OLDEST_FIRST = { orderBy: { id: "asc" } } as const;

function withinReplay<T>(rows: T[]): T[] {
  if (rows.length > MAX_REPLAY) throw replayTooLong();
  return rows;
}

/** Up to `take` events recorded after `after` under `where`, as `eventCreated` delivered them. */
export async function eventsCreatedAfter(ctx: Context, where: Prisma.EventWhereInput, after: number, take: number): Promise<EventCreatedPayload[]> {
  const events = await findMany(ctx.db, "event", { ...OLDEST_FIRST, take, where: { AND: [{ id: { gt: after } }, where] }, select: { id: true, eventType: true } });
  return events.map((event) => ({ eventId: event.id, eventType: event.eventType }));
}

/** Up to `take` changes of `topic` published with the events recorded after `after`. */
export async function changesAfter<K extends ChangeTopic>(ctx: Context, topic: K, after: number, take: number): Promise<Array<Topics[K]>> {
  const events = await findMany(ctx.db, "event", {
    ...OLDEST_FIRST,
    take,
    where: { id: { gt: after }, change: { path: ["topic"], equals: topic } },
    select: { id: true, change: true },
  });
  // recordEvent alone writes `change`, from a RecordedChange of this topic.
  return events.map((event) => ({ ...(event.change as { payload: Omit<Topics[K], "eventId"> }).payload, eventId: event.id }) as Topics[K]);
}

/**
 * A subscription to `topic` that reads from the event log (`log`) what it missed: what the client missed before
 * `after`, if given (at most MAX_REPLAY), and what the server fell behind on (see followThroughLog). The client keeps
 * up while its connection holds nothing the network has not taken.
 */
export function followedTopic<K extends ChangeTopic | "eventCreated">(
  ctx: Context,
  topic: K,
  log: LogPage<Topics[K]>,
  after: number | null | undefined,
  accept: (payload: Topics[K]) => boolean | Promise<boolean>,
) {
  return followThroughLog<Topics[K]>({
    subscribe: (lag) => ctx.pubsub.subscribe(topic, accept, lag),
    log,
    accept,
    clientKeepsUp: () => (ctx.unsentBytes?.() ?? 0) === 0,
    resume: after == null ? undefined : { after, missed: async () => withinReplay(await log(after, MAX_REPLAY + 1)) },
  });
}

/** A change subscription, resumed from `after` when given (see followedTopic). */
export function resumable<K extends ChangeTopic>(ctx: Context, topic: K, after: number | null | undefined, accept: (payload: Topics[K]) => boolean | Promise<boolean>) {
  return followedTopic(ctx, topic, (from, take) => changesAfter(ctx, topic, from, take), after, accept);
}

export const afterArgument = { description: "Resume: first replay the changes after this event id (`event { eventId }` of the last one received)" };
