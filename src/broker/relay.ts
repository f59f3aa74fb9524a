import type { Db } from "../platform/database/connect.ts";
import { type PublishOutcome, VhostRefusedError } from "./publisher.ts";

/** What the relay publishes through (AmqpPublisher, or anything that confirms the same way). */
export interface MessagePublisher {
  publish(vhost: string, queue: string, body: string, messageId: string): Promise<PublishOutcome>;
}

/** Every message taken is reported once with what became of it; `undeliverable`: its vhost is gone. */
export type RelayOutcome = PublishOutcome | "undeliverable";

export interface RelayReports {
  delivered(outcome: RelayOutcome, message: { vhost: string; queue: string; id: number }): void;
  /** The broker could not be reached: the messages stay and are tried again after `retryInMs`. */
  failed(error: unknown, retryInMs: number): void;
}

interface ClaimedRow {
  id: number;
  vhost: string;
  queue: string;
  body: string;
}

const BATCH = 200;

/**
 * Publishes the broker outbox after commit. Each instance runs one: it claims a batch with `FOR UPDATE SKIP LOCKED`
 * for `claimSeconds`, publishes it, and deletes what the broker confirmed, so no two instances send one row and a
 * crash only delays the rows it held. A broker outage backs off (up to `retryMaxMs`) and never touches the API's writes.
 */
export class BrokerRelay {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private backoffMs = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly publisher: MessagePublisher,
    private readonly reports: RelayReports,
    private readonly options: { intervalMs: number; claimSeconds: number; retryMaxMs: number },
  ) {}

  start() {
    this.schedule(0);
  }

  /** Something was committed: drain now (unless backing off from a failure). */
  wake() {
    if (this.stopped || this.backoffMs > 0) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(delayMs: number) {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.run(), delayMs);
    this.timer.unref();
  }

  private async run() {
    if (this.running) return;
    this.running = this.drain()
      .then(() => {
        this.backoffMs = 0;
      })
      .catch((error: unknown) => {
        this.backoffMs = Math.min(this.options.retryMaxMs, Math.max(500, this.backoffMs * 2));
        this.reports.failed(error, this.backoffMs);
      })
      .finally(() => {
        this.running = undefined;
        const next = this.backoffMs || (this.again ? 0 : this.options.intervalMs);
        this.again = false;
        this.schedule(next);
      });
    await this.running;
  }

  /** Publishes until the outbox holds nothing this instance may take. */
  async drain() {
    for (;;) {
      const rows = await this.claim();
      if (rows.length === 0) return;
      await this.publishAll(rows);
      if (rows.length < BATCH) return;
    }
  }

  private claim() {
    return this.db.$queryRaw<ClaimedRow[]>`
      UPDATE broker_outbox SET claimed_until = now() + make_interval(secs => ${this.options.claimSeconds}), attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM broker_outbox WHERE claimed_until IS NULL OR claimed_until < now()
        ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
      RETURNING id, vhost, queue, body`;
  }

  private async publishAll(rows: ClaimedRow[]) {
    rows.sort((a, b) => a.id - b.id);
    const settled = await Promise.allSettled(rows.map((row) => this.publishOne(row)));
    const done = rows.filter((_row, i) => settled[i].status === "fulfilled").map((row) => row.id);
    if (done.length) await this.db.$executeRaw`DELETE FROM broker_outbox WHERE id = ANY(${done}::int[])`;
    const failure = settled.find((s) => s.status === "rejected");
    if (failure) {
      const left = rows.filter((_row, i) => settled[i].status === "rejected").map((row) => row.id);
      // Free them for whichever instance reaches the broker first once it is back.
      await this.db.$executeRaw`UPDATE broker_outbox SET claimed_until = NULL WHERE id = ANY(${left}::int[])`;
      throw failure.reason;
    }
  }

  private async publishOne(row: ClaimedRow) {
    let outcome: RelayOutcome;
    try {
      outcome = await this.publisher.publish(row.vhost, row.queue, row.body, `outbox-${row.id}`);
    } catch (error) {
      if (!(error instanceof VhostRefusedError)) throw error;
      outcome = "undeliverable";
    }
    this.reports.delivered(outcome, row);
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
