import pg from "pg";
import { wasCancelled } from "./database-errors.ts";
import { runPipeline } from "./pipelined-writes.ts";
import { onPooledClient, parsers, query, valueOf } from "./pooled-statement.ts";
import type { PreparedStatements } from "./prepared-statements.ts";
import { type OpenWrite, writesStopped } from "./write-gate.ts";

/** A statement that commits alone (a transition with its event), waiting to be sent. */
interface LoneWrite {
  text: string;
  values: unknown[];
  write: OpenWrite;
  resolve: (rows: unknown[]) => void;
  reject: (error: unknown) => void;
}

/** How long a write in flight keeps its place among those sent at once; past it (it waits for a lock) the next go. */
const PLACE_HELD_MS = 50;
/**
 * A group waits this long for a row lock (it holds its earlier writes' locks meanwhile), then its writes are sent again
 * each alone: a group never takes part in a deadlock. set_config's `true`: for the group's transaction only.
 */
const GROUP_LOCK_TIMEOUT = "SELECT set_config('lock_timeout', '50ms', true)";
/** The most writes one transaction carries. */
const MOST_PER_GROUP = 32;

/**
 * Sends the statements that commit alone with at most `atOnce` transactions in flight; the writes that arrive meanwhile
 * wait and then go together, in one transaction with one commit. Under load PostgreSQL then runs fewer transactions
 * at a time and commits several writes with one flush of its log, which costs it less CPU per write; a write that
 * finds a place free goes at once, alone, as it would without groups. The rows of a grouped write are answered once
 * its transaction has committed.
 *
 * A group is all or nothing only for the database: when one of its statements fails (or waits for a lock longer than
 * GROUP_LOCK_TIMEOUT allows), the transaction rolls back and each write is sent again alone, with the outcome it would
 * have had alone. `atOnce` 0 sends every write at once, alone.
 */
export class CommitGroups {
  readonly #waiting: LoneWrite[] = [];
  #inFlight = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly prepared: PreparedStatements,
    private readonly atOnce: number,
  ) {}

  run<Row>(text: string, values: unknown[], write: OpenWrite): Promise<Row[]> {
    if (this.atOnce <= 0) return this.#alone({ text, values, write }) as Promise<Row[]>;
    return new Promise<unknown[]>((resolve, reject) => {
      this.#waiting.push({ text, values, write, resolve, reject });
      this.#sendWaiting();
    }) as Promise<Row[]>;
  }

  #sendWaiting() {
    while (this.#inFlight < this.atOnce && this.#waiting.length > 0) {
      const group = this.#waiting.splice(0, MOST_PER_GROUP);
      this.#inFlight++;
      let holdsPlace = true;
      const leave = () => {
        if (!holdsPlace) return;
        holdsPlace = false;
        clearTimeout(timer);
        this.#inFlight--;
        this.#sendWaiting();
      };
      const timer = setTimeout(leave, PLACE_HELD_MS);
      void this.#send(group).finally(leave);
    }
  }

  async #send(group: LoneWrite[]) {
    const live = group.filter((lone) => !lone.write.stopped);
    for (const stopped of group.filter((lone) => lone.write.stopped)) stopped.reject(writesStopped());
    if (live.length === 1) return this.#alone(live[0]).then(live[0].resolve, live[0].reject);
    if (live.length === 0 || (await this.#together(live).catch(() => false))) return;
    await Promise.all(live.map((lone) => this.#alone(lone).then(lone.resolve, lone.reject)));
  }

  /** One write, committing alone; a shutdown's cancel of its statement is writesStopped. */
  #alone({ text, values, write }: Pick<LoneWrite, "text" | "values" | "write">): Promise<unknown[]> {
    const sent = (client: pg.PoolClient) => {
      write.runsOn(client.processID === null ? undefined : { pid: client.processID });
      return query<unknown>(client, this.prepared, text, values);
    };
    // A connection whose backend was cancelled may get a cancel late, during its next user's statement: drop it.
    return onPooledClient(this.pool, sent, () => write.stopped).catch((error: unknown) => {
      throw write.stopped && wasCancelled(error) ? writesStopped() : error;
    });
  }

  /**
   * The writes as one pipeline (one round trip, one implicit transaction, one commit): true once each has its answer
   * (its rows, or the failure of a commit whose outcome the database did not tell); false when the database refused
   * one of them, so that nothing of the group was applied.
   */
  async #together(group: LoneWrite[]): Promise<boolean> {
    let failed = false;
    return onPooledClient(
      this.pool,
      async (client) => {
        const statements = [{ name: await this.prepared.nameOn(client, GROUP_LOCK_TIMEOUT), text: GROUP_LOCK_TIMEOUT, values: [] as unknown[] }];
        for (const { text, values } of group) statements.push({ name: await this.prepared.nameOn(client, text), text, values: values.map(valueOf) });
        // Their commit goes out with them: a write stopped meanwhile sends the others again alone.
        if (group.some((lone) => lone.write.stopped)) {
          failed = true;
          return false;
        }
        for (const { write } of group) write.commits();
        try {
          const [, ...rows] = await runPipeline(client, statements, parsers);
          group.forEach((lone, i) => lone.resolve(rows[i]));
          return true;
        } catch (error) {
          failed = true;
          if (error instanceof pg.DatabaseError) return false;
          for (const lone of group) lone.reject(error);
          return true;
        }
      },
      // The statements named on it may not all have been parsed: it is dropped rather than reused.
      () => failed,
    );
  }
}
