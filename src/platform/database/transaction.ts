import type { Prisma } from "../../generated/prisma/client.ts";
import { type Db, transactionLimitOf } from "./connect.ts";
import type { PubSub, TopicMap } from "../messaging/pubsub.ts";
import { writesStopped, type Writes } from "./write-gate.ts";

export type Tx = Prisma.TransactionClient;

/** Notifications collected inside a transaction and published only after it commits. */
export class Outbox<T extends TopicMap> {
  private readonly pending: Array<() => void> = [];

  publish<K extends keyof T & string>(topic: K, payload: T[K]): void {
    this.pending.push(() => this.pubsub.publish(topic, payload));
  }

  /** Runs `notify` once the transaction has committed (never if it rolls back). */
  afterCommit(notify: () => void): void {
    this.pending.push(notify);
  }

  constructor(private readonly pubsub: PubSub<T>) {}

  flush() {
    for (const send of this.pending.splice(0)) send();
  }
}

export interface TransactOptions {
  /**
   * `work` writes in one statement (a data-modifying CTE is atomic by itself) and reads nothing that must agree with
   * it: it runs without a transaction around it (no BEGIN and COMMIT) where the statement timeout keeps it within the
   * same deadline (`TransactionLimit.statementsBounded`), in one otherwise. Its reads, if any (a compare-and-swap's
   * re-read of the state), are statements of their own. Its write goes through `runWrite`, which a shutdown can stop.
   */
  oneStatement?: boolean;
}

/**
 * Runs `work` in one database transaction. Use only `tx` inside it: the embedded database has a single
 * connection, so touching `db` there would wait for the transaction that is waiting for it. The transaction lasts
 * at most DATABASE_TRANSACTION_TIMEOUT_MS (default 15 s), waiting for locks included; past it, it rolls back (503).
 * Return what the answer needs from `work` (read with `tx`): a read after the commit could fail on a lost
 * connection after the change was made.
 *
 * The transaction is a write of `deps.writes`: when they are stopped (the shutdown's grace period ended) before `work`
 * has finished, `work` is abandoned, its running statement cancelled and the transaction rolled back (writesStopped,
 * 503); once `work` has finished, the COMMIT goes out whatever happens next.
 */
export async function transact<T, Topics extends TopicMap>(
  deps: { db: Db; pubsub: PubSub<Topics>; writes: Writes },
  work: (tx: Tx, outbox: Outbox<Topics>) => Promise<T>,
  { oneStatement = false }: TransactOptions = {},
): Promise<T> {
  const outbox = new Outbox(deps.pubsub);
  const limit = transactionLimitOf(deps.db);
  if (oneStatement && limit.statementsBounded) {
    const result = await work(deps.db, outbox);
    outbox.flush();
    return result;
  }
  const write = deps.writes.begin();
  try {
    const result = await deps.db.$transaction(
      async (tx) => {
        const armed = await limit.arm(tx);
        try {
          write.runsOn(armed.backend);
          const done = await write.unlessStopped(work(tx, outbox));
          write.commits();
          return done;
        } finally {
          armed.disarm();
        }
      },
      { timeout: limit.timeoutMs, maxWait: limit.timeoutMs },
    );
    outbox.flush();
    return result;
  } catch (error) {
    // Stopped before its commit: whatever the failure's own words (a cancelled statement, a closed transaction), nothing was applied.
    throw write.stopped ? writesStopped() : error;
  } finally {
    write.end();
  }
}
