import { type Accept, DECIDED_AHEAD, decideAhead, FellBehind, type Lag, type Subscription, SubscriptionEnded } from "../platform/messaging/topic-hub.ts";

/** A published change: it names the audit event under which the event log keeps it. */
export interface LoggedChange {
  eventId: number;
}

/** Up to `take` changes the event log holds after event `after`, oldest first. */
export type LogPage<P> = (after: number, take: number) => Promise<P[]>;

/** How many changes a subscription that fell behind reads from the event log at a time. */
export const CATCH_UP_PAGE = 100;

/** Changes a page read may miss, kept until the next one; a subscription that would need more is interrupted. */
const MAX_SUSPECTS = 100 * CATCH_UP_PAGE;

export interface FollowOptions<P> {
  /** Opens the topic's subscription, letting it fall behind as `lag` says. */
  subscribe(lag: Lag<P>): Subscription<P>;
  /** The topic's changes in the event log, under the subscription's own filters. */
  log: LogPage<P>;
  accept: Accept<P>;
  /** Whether the client takes what it is sent: asked when the subscription's queue overflows. */
  clientKeepsUp(): boolean;
  /** Resuming: the last event id the client received, and what it missed since (replayed first, oldest first). */
  resume?: { after: number; missed(): Promise<P[]> };
}

/** A subscriber's changes; return() ends it at once. */
export interface ChangeFeed<P> extends AsyncIterableIterator<P> {
  return(): Promise<IteratorResult<P>>;
}

/**
 * Where a subscription stands against the event log. Changes are published in commit order, which concurrent
 * transactions make differ from id order, so besides the newest id it has seen it keeps what makes sure that a change
 * no page will hold is not lost, and that one both the log and the live feed bring is delivered once.
 */
class LogPosition<P extends LoggedChange> implements Lag<P> {
  /** The newest event id delivered live or read from the log: the next page is read after it. */
  private horizon: number | undefined;
  private reading = false;
  /** Changes dropped while a page was read, or at or below the horizon: the next page may not hold them. */
  private suspects: P[] = [];
  private tooManySuspects = false;
  /** Ids read from the log that the live feed may still bring: every page since it rejoined, and the two before. */
  private read: Set<number> | undefined;
  private readBefore: Set<number> | undefined;

  constructor(
    after: number | undefined,
    readonly mayFallBehind: () => boolean,
  ) {
    this.horizon = after;
  }

  wasRead(id: number): boolean {
    return Boolean(this.read?.has(id) || this.readBefore?.has(id));
  }

  /** Dropped before anything was delivered, the first change dropped sets where the log is read from. */
  dropped(payload: P) {
    if (this.horizon === undefined) {
      this.horizon = payload.eventId - 1;
      return;
    }
    const nextPageMayMissIt = this.reading || payload.eventId <= this.horizon;
    if (!nextPageMayMissIt) return;
    if (this.suspects.length < MAX_SUSPECTS) this.suspects.push(payload);
    else this.tooManySuspects = true;
  }

  /** `behind`: the queue overflowed while this change was on its way: the log is read from before it, skipping it. */
  deliveredLive(id: number, behind: boolean) {
    if (behind) (this.read ??= new Set()).add(id);
    else this.horizon = Math.max(this.horizon ?? id, id);
  }

  nextPage(log: LogPage<P>): Promise<P[]> {
    const after = this.horizon;
    if (after === undefined) throw new Error("A subscription fell behind without dropping a change.");
    return this.whileReading(() => log(after, CATCH_UP_PAGE));
  }

  async whileReading(read: () => Promise<P[]>): Promise<P[]> {
    this.reading = true;
    try {
      return await read();
    } finally {
      this.reading = false;
    }
  }

  /** A page read from the log (the live feed `queueing` meanwhile, or not): the changes to deliver, in id order. */
  pageRead(page: P[], queueing: boolean): P[] {
    if (this.tooManySuspects) throw new SubscriptionEnded("interrupted");
    const ids = new Set(page.map((change) => change.eventId));
    const horizon = Math.max(this.horizon ?? 0, page.at(-1)?.eventId ?? 0);
    // Read before: only a change delivered live as the queue overflowed (the pages themselves never overlap).
    const unseen = page.filter((change) => !this.wasRead(change.eventId));
    const late = this.suspects.filter((change) => change.eventId <= horizon && !ids.has(change.eventId) && !this.wasRead(change.eventId));
    this.suspects = [];
    if (!queueing) [this.readBefore, this.read] = [this.read, ids];
    else for (const id of ids) (this.read ??= new Set()).add(id);
    this.horizon = horizon;
    return late.length ? [...unseen, ...late].sort((a, b) => a.eventId - b.eventId) : unseen;
  }
}

/** The changes `accept` takes, in order; each decided while the few before it are delivered. */
async function* accepted<P>(changes: P[], accept: Accept<P>): AsyncGenerator<P> {
  const decisions: Array<boolean | Promise<boolean>> = [];
  for (const [i, change] of changes.entries()) {
    for (const ahead of changes.slice(decisions.length, i + 1 + DECIDED_AHEAD)) decisions.push(decideAhead(accept, ahead));
    if (await decisions[i]) yield change;
  }
}

/**
 * A topic's changes for one subscriber, in order and each once: live while the server keeps up; when its queue
 * overflows while the client still takes what it is sent (the server is the one behind), from the event log, page
 * by page, then live again. With `resume`, what the client missed comes first. The live subscription is open before
 * anything is read from the log, so nothing falls between the two.
 */
export function followThroughLog<P extends LoggedChange>(options: FollowOptions<P>): ChangeFeed<P> {
  return new FollowedChanges(options);
}

/** Live, a filter over the hub's subscription; a generator only while the log is read (a replay, a catch-up). */
class FollowedChanges<P extends LoggedChange> implements ChangeFeed<P> {
  private readonly position: LogPosition<P>;
  private readonly feed: Subscription<P>;
  private fromLog: AsyncGenerator<P> | undefined;

  constructor(private readonly options: FollowOptions<P>) {
    this.position = new LogPosition<P>(options.resume?.after, options.clientKeepsUp);
    this.feed = options.subscribe(this.position);
    if (options.resume) this.fromLog = replayed(this.position, options.resume.missed, options.accept);
  }

  /** A failure ends the subscription (no one calls return() after it). */
  async next(): Promise<IteratorResult<P>> {
    try {
      for (;;) {
        if (this.fromLog) {
          const change = await this.fromLog.next();
          if (!change.done) return change;
          this.fromLog = undefined;
        }
        try {
          const change = await this.feed.next();
          if (change.done) return change;
          if (this.position.wasRead(change.value.eventId)) continue;
          this.position.deliveredLive(change.value.eventId, this.feed.state === "behind");
          return change;
        } catch (error) {
          if (!(error instanceof FellBehind)) throw error;
          this.fromLog = caughtUp(this.feed, this.position, this.options);
        }
      }
    } catch (error) {
      await this.feed.return();
      throw error;
    }
  }

  /** Ending the feed answers a next() waiting for a change at once; a log read under way is let finish. */
  async return(): Promise<IteratorResult<P>> {
    await this.feed.return();
    await this.fromLog?.return(undefined);
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/** What a resuming client missed, read before anything live is delivered. */
async function* replayed<P extends LoggedChange>(position: LogPosition<P>, missed: () => Promise<P[]>, accept: Accept<P>) {
  yield* accepted(position.pageRead(await position.whileReading(missed), true), accept);
}

/**
 * Reads the log up to its end; the live feed queues again once the end is in sight, and takes over after a read to
 * the end during all of which it queued (what it dropped meanwhile is only in the log).
 */
async function* caughtUp<P extends LoggedChange>(feed: Subscription<P>, position: LogPosition<P>, { log, accept }: FollowOptions<P>) {
  for (;;) {
    const liveBefore = feed.state === "live";
    const page = await position.nextPage(log);
    const queuedThroughout = liveBefore && feed.state === "live";
    const changes = position.pageRead(page, queuedThroughout);
    const atEnd = page.length < CATCH_UP_PAGE;
    if (atEnd && feed.state === "behind") feed.rejoin();
    yield* accepted(changes, accept);
    if (feed.state === "ended" || (atEnd && queuedThroughout && feed.state === "live")) return;
  }
}
