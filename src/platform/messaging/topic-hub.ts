import { GraphQLError } from "graphql";

/** Whether one subscriber wants a published payload; may ask the database (visibility). */
export type Accept<P> = (payload: P) => boolean | Promise<boolean>;

/** How many queued payloads a subscriber decides at once: the next ones' queries run while one is delivered. */
export const DECIDED_AHEAD = 4;

/** `accept(payload)` started ahead of its turn: its failure is not unhandled if its turn never comes. */
export function decideAhead<P>(accept: Accept<P>, payload: P): boolean | Promise<boolean> {
  const decision = accept(payload);
  if (decision instanceof Promise) decision.catch(() => {});
  return decision;
}

/** Where payloads come from and go to: an in-process EventTarget, or Redis channels across instances. */
export interface TopicTransport {
  addEventListener(topic: string, listener: (event: Event) => void): void;
  removeEventListener(topic: string, listener: (event: Event) => void): void;
  dispatchEvent(event: Event): boolean;
}

/** Why the hub ends a subscription by itself; either way its client has missed changes and must re-read. */
const ENDINGS = {
  interrupted: { code: "SUBSCRIPTION_INTERRUPTED", message: "Subscription feed interrupted; re-read and resubscribe." },
  too_slow: { code: "SUBSCRIBER_TOO_SLOW", message: "Subscriber too slow: changes were dropped; re-read and resubscribe." },
} as const;
export type EndReason = keyof typeof ENDINGS;
export const SUBSCRIBER_TOO_SLOW = ENDINGS.too_slow.code;

/** What the consumer of an ended subscription gets instead of its next payload. */
export class SubscriptionEnded extends GraphQLError {
  constructor(readonly reason: EndReason) {
    super(ENDINGS[reason].message, { extensions: { code: ENDINGS[reason].code } });
  }
}

/** How far one subscriber may fall behind: payloads published but not yet taken, and their JSON size. */
export interface QueueLimits {
  maxMessages: number;
  maxBytes: number;
}
export const DEFAULT_QUEUE_LIMITS: QueueLimits = { maxMessages: 1000, maxBytes: 8 * 1024 * 1024 };

export interface TopicHubOptions {
  limits?: QueueLimits;
  /** Hears every subscription the hub ends by itself. */
  onEnded?: (reason: EndReason) => void;
  /** Hears every time a subscription falls behind (see Lag); `first`: the first time for that subscription. */
  onFellBehind?: (topic: string, first: boolean) => void;
}

/**
 * How a subscription whose queue overflows may fall behind instead of ending as too slow, when its consumer can read
 * what it missed elsewhere (the event log): its queue is dropped, and so is every payload published until `rejoin`.
 */
export interface Lag<P> {
  /** Asked at each overflow: whether the subscription may fall behind; if not, it ends as too slow. */
  mayFallBehind(): boolean;
  /** Each payload dropped: the queue's at the overflow, then every one published while behind. */
  dropped(payload: P): void;
}

/** What `next()` throws while a subscription is behind (see Lag). */
export class FellBehind extends Error {
  constructor() {
    super("The subscription fell behind: its queue was dropped.");
  }
}

export type SubscriptionState = "live" | "behind" | "ended";

/** A subscription to a topic: its payloads in publication order, from subscription on. */
export interface Subscription<P> extends AsyncIterableIterator<P> {
  readonly state: SubscriptionState;
  /** Behind: queue the payloads published from now on again. */
  rejoin(): void;
  return(): Promise<IteratorResult<P>>;
}

const DONE: IteratorResult<never> = { done: true, value: undefined };

/** One subscriber's queue of payloads not yet taken, and its consumer waiting for the next one. */
class Subscriber<P> implements Subscription<P> {
  private readonly queue: Array<{ payload: P; bytes: number; decision?: boolean | Promise<boolean> }> = [];
  private queuedBytes = 0;
  private waiting: ((payload: P | undefined) => void) | undefined;
  private ended = false;
  private behind = false;
  private fellBehindBefore = false;
  /** Thrown (once) by the consumer's next `next()`. */
  private ending: SubscriptionEnded | undefined;

  constructor(
    private readonly accept: Accept<P> | undefined,
    private readonly limits: QueueLimits,
    private readonly leave: (subscriber: Subscriber<P>, ending?: SubscriptionEnded) => void,
    private readonly lag: Lag<P> | undefined,
    private readonly reportFellBehind: (first: boolean) => void,
  ) {}

  get queued(): number {
    return this.queue.length;
  }

  get state(): SubscriptionState {
    return this.ended ? "ended" : this.behind ? "behind" : "live";
  }

  /**
   * Past its limits the subscriber falls behind if its Lag allows, else it is dropped, as Redis drops a pub/sub client
   * whose output buffer overflows.
   */
  push(payload: P, bytes: number) {
    if (this.ended) return;
    if (this.behind) return this.lag?.dropped(payload);
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      return waiting(payload);
    }
    if (this.queue.length >= this.limits.maxMessages || this.queuedBytes + bytes > this.limits.maxBytes) {
      if (this.lag?.mayFallBehind()) return this.fallBehind(this.lag, payload);
      return this.end(new SubscriptionEnded("too_slow"));
    }
    this.queue.push({ payload, bytes });
    this.queuedBytes += bytes;
  }

  private fallBehind(lag: Lag<P>, payload: P) {
    this.behind = true;
    for (const queued of this.queue) lag.dropped(queued.payload);
    lag.dropped(payload);
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.reportFellBehind(!this.fellBehindBefore);
    this.fellBehindBefore = true;
  }

  rejoin() {
    this.behind = false;
  }

  private take(): { payload: P; decision?: boolean | Promise<boolean> } {
    const entry = this.queue.shift()!;
    this.queuedBytes -= entry.bytes;
    return entry;
  }

  /** Payloads are accepted (or dropped) in the order they were published; the next few queued are decided meanwhile. */
  async next(): Promise<IteratorResult<P>> {
    while (!this.ended) {
      if (this.behind) throw new FellBehind();
      const taken = this.queue.length ? this.take() : undefined;
      const payload = taken ? taken.payload : await new Promise<P | undefined>((resolve) => (this.waiting = resolve));
      if (this.ended) break;
      const accepted = this.accept ? (taken?.decision ?? this.accept(payload as P)) : true;
      if (this.accept) for (const ahead of this.queue.slice(0, DECIDED_AHEAD)) ahead.decision ??= decideAhead(this.accept, ahead.payload);
      if (accepted === true || (accepted !== false && (await accepted))) return { done: false, value: payload as P };
    }
    const ending = this.ending;
    this.ending = undefined;
    if (ending) throw ending;
    return DONE;
  }

  /** Ends the subscription; with `ending`, its consumer is told why. */
  end(ending?: SubscriptionEnded) {
    if (this.ended) return;
    this.ended = true;
    this.ending = ending;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.leave(this, ending);
    this.waiting?.(undefined);
    this.waiting = undefined;
  }

  async return(): Promise<IteratorResult<P>> {
    this.end();
    this.ending = undefined;
    return DONE;
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/**
 * Local fan-out of a transport's topics: one transport listener per topic however many subscribers it has, and
 * each subscriber a bounded queue. Every subscriber of a topic receives the same payload object, so decisions and
 * results cached per payload (see subscriberMaySee, shared subscription results) are shared by all of them.
 */
export class TopicHub {
  private readonly topics = new Map<string, { subscribers: Set<Subscriber<unknown>>; listener: (event: Event) => void }>();
  private readonly limits: QueueLimits;
  private feedDown = false;
  private peak = 0;

  constructor(
    private readonly transport: TopicTransport,
    private readonly options: TopicHubOptions = {},
  ) {
    this.limits = options.limits ?? DEFAULT_QUEUE_LIMITS;
  }

  publish(topic: string, payload: unknown): void {
    this.transport.dispatchEvent(new CustomEvent(topic, { detail: payload }));
  }

  /**
   * While the feed is down (`feedLost`), a new subscription ends at once as interrupted: nothing would reach it. With
   * `lag`, an overflowing queue may make it fall behind instead of ending it as too slow.
   */
  subscribe<P>(topic: string, accept?: Accept<P>, lag?: Lag<P>): Subscription<P> {
    const leave = (gone: Subscriber<P>, ending?: SubscriptionEnded) => this.leave(topic, gone as Subscriber<unknown>, ending);
    const subscriber = new Subscriber<P>(accept, this.limits, leave, lag, (first) => this.options.onFellBehind?.(topic, first));
    if (this.feedDown) subscriber.end(new SubscriptionEnded("interrupted"));
    else this.join(topic).add(subscriber as Subscriber<unknown>);
    return subscriber;
  }

  /** Ends the subscriptions of `topic` (of every topic without it) as interrupted: they missed a change. */
  interrupt(topic?: string) {
    const entries = topic === undefined ? [...this.topics.values()] : [this.topics.get(topic)].filter((entry) => entry !== undefined);
    for (const { subscribers } of entries) for (const subscriber of [...subscribers]) subscriber.end(new SubscriptionEnded("interrupted"));
  }

  /** The transport stopped delivering (its connection is lost): every subscription is interrupted until `feedRestored`. */
  feedLost() {
    this.feedDown = true;
    this.interrupt();
  }

  feedRestored() {
    this.feedDown = false;
  }

  /** Open subscriptions across all topics. */
  get size(): number {
    let size = 0;
    for (const { subscribers } of this.topics.values()) size += subscribers.size;
    return size;
  }

  /** The longest queue now, and the longest any subscriber's queue has been. */
  get queues(): { longest: number; peak: number } {
    let longest = 0;
    for (const { subscribers } of this.topics.values()) for (const subscriber of subscribers) longest = Math.max(longest, subscriber.queued);
    return { longest, peak: this.peak };
  }

  private join(topic: string): Set<Subscriber<unknown>> {
    const existing = this.topics.get(topic);
    if (existing) return existing.subscribers;
    const subscribers = new Set<Subscriber<unknown>>();
    const listener = (event: Event) => {
      const payload = (event as CustomEvent).detail;
      const bytes = JSON.stringify(payload)?.length ?? 0;
      for (const subscriber of subscribers) {
        subscriber.push(payload, bytes);
        if (subscriber.queued > this.peak) this.peak = subscriber.queued;
      }
    };
    this.topics.set(topic, { subscribers, listener });
    this.transport.addEventListener(topic, listener);
    return subscribers;
  }

  private leave(topic: string, subscriber: Subscriber<unknown>, ending?: SubscriptionEnded) {
    const entry = this.topics.get(topic);
    if (!entry?.subscribers.delete(subscriber)) return;
    if (ending) this.options.onEnded?.(ending.reason);
    if (entry.subscribers.size > 0) return;
    this.topics.delete(topic);
    this.transport.removeEventListener(topic, entry.listener);
  }
}
