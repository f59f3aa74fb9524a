import { Duplex } from "node:stream";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { MAINTENANCE_TAG } from "./lone-statement.ts";

/**
 * node-postgres's connection to an embedded database, in-process: the bytes the driver writes are PostgreSQL's wire
 * protocol, which PGlite speaks (execProtocolRaw). Messages are handed over a batch at a time, each ending where the
 * client waits for an answer (Sync, a simple Query, the startup), under PGlite's lock, held until the session is idle
 * again (outside a transaction): Prisma's statements share PGlite's one session, and must fall neither between a
 * batch's Parse and Execute nor inside a transaction the pool began. Terminate only closes the stream: the embedded
 * database outlives its connections.
 */
class PGliteWire extends Duplex {
  private pending = Buffer.alloc(0);
  private started = false;
  private work: Promise<unknown> = Promise.resolve();
  /** Releases PGlite's lock, held from a batch until the session is idle again. */
  private release?: () => void;

  constructor(private readonly db: PGlite) {
    super();
  }

  // What node-postgres asks of a socket; it connects once the database has started.
  connect() {
    this.db.waitReady.then(
      () => this.emit("connect"),
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }

  override _read() {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.pending = Buffer.concat([this.pending, chunk]);
    const batches = this.takeBatches();
    const written = this.work.then(async () => {
      for (const batch of batches) {
        if (batch === TERMINATE) {
          this.unlock();
          this.push(null);
        } else this.push(await this.exchange(batch));
      }
    });
    // A failed write fails the connection (node-postgres drops it), not the writes after it.
    this.work = written.catch(() => this.unlock());
    written.then(() => done(), done);
  }

  /**
   * A batch's answer, which ends with ReadyForQuery: its last byte is the session's state, I when idle. Taken as the
   * raw bytes PGlite writes (copied out of its memory as they come): execProtocolRaw would also parse every message in
   * JavaScript, for notifications this pool never listens to and errors node-postgres reads itself.
   */
  private async exchange(batch: Buffer): Promise<Buffer> {
    if (!this.release) await this.lock();
    const chunks: Buffer[] = [];
    await this.db.execProtocolRawStream(new Uint8Array(batch), { onRawData: (data) => void chunks.push(Buffer.from(data)) });
    const [only, ...more] = chunks;
    const answer = only && more.length === 0 ? only : Buffer.concat(chunks);
    if (answer[answer.length - 1] === IDLE) this.unlock();
    return answer;
  }

  private lock() {
    return new Promise<void>((locked) => {
      // PGlite's transaction lock, which its own queries take first and its transactions (Prisma's) hold throughout:
      // a batch never runs inside a transaction it did not begin.
      void this.db._runExclusiveTransaction(
        () =>
          new Promise<void>((release) => {
            this.release = release;
            locked();
          }),
      );
    });
  }

  private unlock() {
    this.release?.();
    this.release = undefined;
  }

  /** The complete batches written so far; the rest stays pending. */
  private takeBatches(): Array<Buffer | typeof TERMINATE> {
    const batches: Array<Buffer | typeof TERMINATE> = [];
    let start = 0;
    let at = 0;
    while (true) {
      const header = this.started ? 1 : 0;
      if (this.pending.length < at + header + 4) break;
      const end = at + header + this.pending.readInt32BE(at + header);
      if (this.pending.length < end) break;
      const type = this.started ? String.fromCharCode(this.pending[at]) : "startup";
      this.started = true;
      if (type === "X") {
        batches.push(TERMINATE);
        start = end;
      } else if (type === "S" || type === "Q" || type === "startup") {
        batches.push(this.pending.subarray(start, end));
        start = end;
      }
      at = end;
    }
    this.pending = this.pending.subarray(start);
    return batches;
  }
}

const TERMINATE = Symbol("terminate");
const IDLE = "I".charCodeAt(0);

/**
 * A node-postgres pool of the embedded database's one session, over its wire protocol (PGliteWire): statements sent
 * through it are named and prepared as on PostgreSQL, so PGlite parses and plans a statement once per text.
 */
export function pgliteWirePool(pglite: PGlite): pg.Pool {
  const pool = new pg.Pool({ max: 1, user: "postgres", database: "postgres", stream: () => new PGliteWire(pglite) });
  // Every connection is the one PGlite session: a new one starts without the statements a dropped one prepared, as a
  // new backend would (tagged as maintenance: no request asked for it).
  pool.on("connect", (client) => void client.query(`${MAINTENANCE_TAG} DEALLOCATE ALL`));
  return pool;
}
