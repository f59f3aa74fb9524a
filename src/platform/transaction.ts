import type { Prisma } from "../generated/prisma/client.ts";
import type { Db } from "./database.ts";
import type { PubSub, Topics } from "./pubsub.ts";

export type Tx = Prisma.TransactionClient;

/** Notifications collected inside a transaction and published only after it commits. */
export class Outbox {
  private readonly pending: Array<() => void> = [];

  publish<K extends keyof Topics>(topic: K, payload: Topics[K]): void {
    this.pending.push(() => this.pubsub.publish(topic, payload));
  }

  constructor(private readonly pubsub: PubSub) {}

  flush() {
    for (const send of this.pending.splice(0)) send();
  }
}

/**
 * Runs `work` in one database transaction. Use only `tx` inside it: the embedded database has a single
 * connection, so touching `db` there would wait for the transaction that is waiting for it.
 */
export async function transact<T>(
  deps: { db: Db; pubsub: PubSub },
  work: (tx: Tx, outbox: Outbox) => Promise<T>,
): Promise<T> {
  const outbox = new Outbox(deps.pubsub);
  const result = await deps.db.$transaction((tx) => work(tx, outbox), { timeout: 15_000, maxWait: 15_000 });
  outbox.flush();
  return result;
}
