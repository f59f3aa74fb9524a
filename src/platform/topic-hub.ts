/** Whether one subscriber wants a published payload; may ask the database (visibility). */
export type Accept<P> = (payload: P) => boolean | Promise<boolean>;

/** Where payloads come from and go to: an in-process EventTarget, or Redis' event target across instances. */
export interface TopicTransport {
  addEventListener(topic: string, listener: (event: Event) => void): void;
  removeEventListener(topic: string, listener: (event: Event) => void): void;
  dispatchEvent(event: Event): boolean;
}

/** One subscriber's queue of payloads not yet taken, and its consumer waiting for the next one. */
class Subscriber<P> implements AsyncIterableIterator<P> {
  private readonly queue: P[] = [];
  private waiting: ((payload: P | undefined) => void) | undefined;
  private ended = false;

  constructor(
    private readonly accept: Accept<P> | undefined,
    private readonly leave: (subscriber: Subscriber<P>) => void,
  ) {}

  push(payload: P) {
    if (this.ended) return;
    const waiting = this.waiting;
    if (!waiting) return void this.queue.push(payload);
    this.waiting = undefined;
    waiting(payload);
  }

  /** Payloads are accepted (or dropped) in the order they were published, one at a time. */
  async next(): Promise<IteratorResult<P>> {
    while (!this.ended) {
      const payload = this.queue.length ? this.queue.shift() : await new Promise<P | undefined>((resolve) => (this.waiting = resolve));
      if (this.ended) return { done: true, value: undefined };
      const accepted = this.accept ? this.accept(payload as P) : true;
      if (accepted === true || (accepted !== false && (await accepted))) return { done: false, value: payload as P };
    }
    return { done: true, value: undefined };
  }

  async return(): Promise<IteratorResult<P>> {
    if (!this.ended) {
      this.ended = true;
      this.queue.length = 0;
      this.leave(this);
      this.waiting?.(undefined);
      this.waiting = undefined;
    }
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/**
 * Local fan-out of a transport's topics: one transport listener per topic however many subscribers it has, and
 * each subscriber a plain queue. Every subscriber of a topic receives the same payload object, so decisions and
 * results cached per payload (see subscriberMaySee, shared subscription results) are shared by all of them.
 */
export class TopicHub {
  private readonly topics = new Map<string, { subscribers: Set<Subscriber<unknown>>; listener: (event: Event) => void }>();

  constructor(private readonly transport: TopicTransport) {}

  publish(topic: string, payload: unknown): void {
    this.transport.dispatchEvent(new CustomEvent(topic, { detail: payload }));
  }

  subscribe<P>(topic: string, accept?: Accept<P>): AsyncIterableIterator<P> {
    const subscriber = new Subscriber<P>(accept, (gone) => this.leave(topic, gone as Subscriber<unknown>));
    this.join(topic).add(subscriber as Subscriber<unknown>);
    return subscriber;
  }

  /** Open subscriptions across all topics. */
  get size(): number {
    let size = 0;
    for (const { subscribers } of this.topics.values()) size += subscribers.size;
    return size;
  }

  private join(topic: string): Set<Subscriber<unknown>> {
    const existing = this.topics.get(topic);
    if (existing) return existing.subscribers;
    const subscribers = new Set<Subscriber<unknown>>();
    const listener = (event: Event) => {
      const payload = (event as CustomEvent).detail;
      for (const subscriber of subscribers) subscriber.push(payload);
    };
    this.topics.set(topic, { subscribers, listener });
    this.transport.addEventListener(topic, listener);
    return subscribers;
  }

  private leave(topic: string, subscriber: Subscriber<unknown>) {
    const entry = this.topics.get(topic);
    if (!entry?.subscribers.delete(subscriber) || entry.subscribers.size > 0) return;
    this.topics.delete(topic);
    this.transport.removeEventListener(topic, entry.listener);
  }
}
