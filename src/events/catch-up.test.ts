import { describe, expect, it } from "vitest";
import { SubscriptionEnded, TopicHub } from "../platform/messaging/topic-hub.ts";
import { CATCH_UP_PAGE, type ChangeFeed, followThroughLog, type LogPage } from "./catch-up.ts";

type Change = { eventId: number };

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A topic over an in-process hub whose queues hold `maxMessages`, and an event log in memory: `commit` makes a change
 * readable, then publishes it, as a transaction's outbox does after its commit. `duringRead` runs while a page is
 * being read, after the log's snapshot was taken (a commit racing the read).
 */
function topicWithLog(maxMessages: number) {
  let fellBehind = 0;
  const limits = { maxMessages, maxBytes: Number.MAX_SAFE_INTEGER };
  const hub = new TopicHub(new EventTarget(), { limits, onFellBehind: () => fellBehind++ });
  const committed: Change[] = [];
  let duringRead: (() => void) | undefined;
  const log: LogPage<Change> = async (after, take) => {
    const page = committed.filter((change) => change.eventId > after).sort((a, b) => a.eventId - b.eventId).slice(0, take);
    const racing = duringRead;
    duringRead = undefined;
    racing?.();
    await turn();
    return page;
  };
  return {
    commit(eventId: number) {
      const change = { eventId };
      committed.push(change);
      hub.publish("t", change);
    },
    whileReading: (run: () => void) => (duringRead = run),
    get fellBehind() {
      return fellBehind;
    },
    follow: ({ clientKeepsUp = true, after }: { clientKeepsUp?: boolean; after?: number } = {}) =>
      followThroughLog<Change>({
        subscribe: (lag) => hub.subscribe("t", undefined, lag),
        log,
        accept: () => true,
        clientKeepsUp: () => clientKeepsUp,
        resume: after === undefined ? undefined : { after, missed: () => log(after, 1000) },
      }),
    get subscribers() {
      return hub.size;
    },
  };
}

/** Takes `count` changes, a few turns each: a consumer much slower than the writer below. */
async function slowlyTake(feed: ChangeFeed<Change>, count: number): Promise<number[]> {
  const received: number[] = [];
  while (received.length < count) {
    const next = await feed.next();
    if (next.done) break;
    received.push(next.value.eventId);
    for (let i = 0; i < 3; i++) await turn();
  }
  return received;
}

/** Commits `order`'s ids a burst of ten per turn. */
async function commitInBursts(topic: ReturnType<typeof topicWithLog>, order: number[]) {
  for (let i = 0; i < order.length; i += 10) {
    for (const id of order.slice(i, i + 10)) topic.commit(id);
    await turn();
  }
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("followThroughLog", () => {
  it("gives a consumer slower than the writes every change once, in order, from the log while it is behind", async () => {
    const topic = topicWithLog(5);
    const feed = topic.follow();
    const count = 3 * CATCH_UP_PAGE + 7;
    const taking = slowlyTake(feed, count);
    await commitInBursts(topic, ids(1, count));
    expect(await taking).toEqual(ids(1, count));
    expect(topic.fellBehind).toBeGreaterThan(1);
    await feed.return();
    expect(topic.subscribers).toBe(0);
  });

  it("delivers each once when commits publish out of id order around the overflows", async () => {
    const topic = topicWithLog(4);
    const feed = topic.follow();
    // Neighbours swapped: 2, 1, 4, 3, … as concurrent transactions commit.
    const order = ids(1, 2 * CATCH_UP_PAGE).map((id) => (id % 2 ? id + 1 : id - 1));
    const taking = slowlyTake(feed, order.length);
    await commitInBursts(topic, order);
    const received = await taking;
    expect([...received].sort((a, b) => a - b)).toEqual(ids(1, order.length));
    expect(topic.fellBehind).toBeGreaterThan(1);
    await feed.return();
  });

  it("delivers a change dropped at an overflow whose id is below one already delivered live", async () => {
    const topic = topicWithLog(3);
    const feed = topic.follow();
    const first = feed.next();
    topic.commit(2);
    expect((await first).value).toEqual({ eventId: 2 });
    // 1 committed after 2, and dropped with the queue: the log is read after 2.
    for (const id of [1, 3, 4, 5, 6]) topic.commit(id);
    expect(await slowlyTake(feed, 5)).toEqual([1, 3, 4, 5, 6]);
    expect(topic.fellBehind).toBe(1);
    await feed.return();
  });

  it("delivers once a change both read from the log and queued live after rejoining", async () => {
    const topic = topicWithLog(3);
    const feed = topic.follow();
    const received: number[] = [];
    const taking = (async () => {
      for await (const change of feed) {
        received.push(change.eventId);
        // While the last page is delivered: queued live (the feed has rejoined), and on the next page.
        if (change.eventId === 5) for (const id of [11, 12]) topic.commit(id);
        if (change.eventId === 12) topic.commit(13);
        if (change.eventId === 13) break;
      }
    })();
    for (const id of ids(1, 10)) topic.commit(id);
    await taking;
    expect(received).toEqual(ids(1, 13));
    expect(topic.fellBehind).toBe(1);
  });

  it("reads on when the queue overflows again while the log's end is read, before following live", async () => {
    const topic = topicWithLog(3);
    const feed = topic.follow();
    const received: number[] = [];
    const taking = (async () => {
      for await (const change of feed) {
        received.push(change.eventId);
        // The feed has rejoined; the read that would end the catch-up sees none of these, and they overflow its queue.
        if (change.eventId === 5) topic.whileReading(() => ids(11, 20).forEach((id) => topic.commit(id)));
        if (change.eventId === 20) break;
      }
    })();
    for (const id of ids(1, 10)) topic.commit(id);
    await taking;
    expect(received).toEqual(ids(1, 20));
    expect(topic.fellBehind).toBe(2);
  });

  it("delivers a change committed during a page's read below that page's newest id", async () => {
    const topic = topicWithLog(3);
    const feed = topic.follow();
    const taking = slowlyTake(feed, 40);
    for (const id of ids(1, 20)) topic.commit(id);
    // Reserved as 21 but committed once a later page's read has its snapshot, which 22…40 are in.
    topic.whileReading(() => topic.commit(21));
    for (const id of ids(22, 40)) topic.commit(id);
    const received = await taking;
    expect([...received].sort((a, b) => a - b)).toEqual(ids(1, 40));
    expect(new Set(received).size).toBe(40);
    expect(topic.fellBehind).toBe(1);
    await feed.return();
  });

  it("is released at once when returned while it waits for a change", async () => {
    const topic = topicWithLog(3);
    const feed = topic.follow();
    const waiting = feed.next();
    await feed.return();
    expect(topic.subscribers).toBe(0);
    expect(await waiting).toEqual({ done: true, value: undefined });
  });

  it("resuming, delivers a change committed out of id order while the replay is read, as the queue overflows", async () => {
    const topic = topicWithLog(3);
    for (const id of [1, 2, 3, 4, 5, 7]) topic.commit(id);
    topic.whileReading(() => [6, 8, 9, 10, 11].forEach((id) => topic.commit(id)));
    const feed = topic.follow({ after: 2 });
    expect(await slowlyTake(feed, 9)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(topic.fellBehind).toBe(1);
    await feed.return();
  });

  it("releases its subscription when reading the log fails, and rejects with the failure", async () => {
    const topic = topicWithLog(3);
    const feed = topic.follow();
    topic.whileReading(() => {
      throw new Error("database gone");
    });
    const first = feed.next();
    for (const id of ids(1, 10)) topic.commit(id);
    expect(await first).toEqual({ done: false, value: { eventId: 1 } });
    await expect(feed.next()).rejects.toThrow("database gone");
    expect(topic.subscribers).toBe(0);
  });

  it("ends as too slow a subscription whose client does not take what it is sent", async () => {
    const topic = topicWithLog(3);
    const feed = topic.follow({ clientKeepsUp: false });
    const next = feed.next();
    for (const id of ids(1, 10)) topic.commit(id);
    await expect(next).rejects.toThrow(SubscriptionEnded);
    await expect(next).rejects.toMatchObject({ reason: "too_slow" });
    expect(topic.subscribers).toBe(0);
  });
});
