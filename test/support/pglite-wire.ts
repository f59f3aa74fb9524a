import { readFileSync } from "node:fs";
import { Duplex } from "node:stream";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { inject } from "vitest";
import { PrismaClient } from "../../src/generated/prisma/client.ts";
import type { Database } from "../../src/platform/database/connect.ts";
import { runsLoneStatementsOn } from "../../src/platform/database/lone-statement.ts";
import { applyMigrations } from "../../src/platform/database/migrations.ts";
import { createPGlite } from "../../src/platform/database/pglite.ts";
import { loadDeploymentSettings } from "../../src/platform/settings/deployment-settings.ts";
import { freshDatabase, type PoolOptions } from "./database.ts";

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

  // What node-postgres asks of a socket.
  connect() {
    queueMicrotask(() => this.emit("connect"));
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
        } else this.push(Buffer.from(await this.exchange(batch)));
      }
    });
    // A failed write fails the connection (node-postgres drops it), not the writes after it.
    this.work = written.catch(() => this.unlock());
    written.then(() => done(), done);
  }

  /** A batch's answer, which ends with ReadyForQuery: its last byte is the session's state, I when idle. */
  private async exchange(batch: Buffer): Promise<Uint8Array> {
    if (!this.release) await this.lock();
    const answer = await this.db.execProtocolRaw(new Uint8Array(batch));
    if (answer[answer.length - 1] === IDLE) this.unlock();
    return answer;
  }

  private lock() {
    return new Promise<void>((locked) => {
      void this.db.runExclusive(
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
 * A fresh embedded database (the migrated template) whose statements that commit alone and whose compiled reads go
 * through a node-postgres pool, as on PostgreSQL (`runText`, `runStatement`), over PGlite's wire protocol: the path
 * production takes, in `npm test`. Prisma's own queries and transactions go through its PGlite adapter as usual.
 */
export async function embeddedDatabaseOnPool({
  preparedStatements = loadDeploymentSettings({}).databasePreparedStatements,
  commitGroups = loadDeploymentSettings({}).databaseCommitGroups,
}: Pick<PoolOptions, "preparedStatements" | "commitGroups"> = {}): Promise<Database & { pool: pg.Pool; drop(): Promise<void> }> {
  const template = inject("pgliteTemplate");
  const pglite = createPGlite(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {});
  await pglite.waitReady;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const pool = new pg.Pool({ max: 1, user: "postgres", database: "postgres", stream: () => new PGliteWire(pglite) });
  // Every connection is the one PGlite session: a new one starts without the statements a dropped one prepared, as a
  // new backend would.
  pool.on("connect", (client) => void client.query("DEALLOCATE ALL"));
  runsLoneStatementsOn(prisma, pool, { preparedPerConnection: preparedStatements, groupsAtOnce: commitGroups });
  const close = async () => {
    await pool.end();
    await prisma.$disconnect();
    await pglite.close();
  };
  return {
    prisma,
    kind: "pglite",
    poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    sql: {
      query: async <T,>(text: string, params?: unknown[]) => ({ rows: (await pglite.query<T>(text, params)).rows }),
      exec: async (text) => void (await pglite.exec(text)),
    },
    close,
    drop: close,
    pool,
  };
}

const MIGRATIONS_DIR = new URL("../../prisma/migrations", import.meta.url).pathname;

/**
 * A fresh, migrated database whose lone statements and compiled reads take production's path, a node-postgres pool:
 * PostgreSQL's with TEST_DATABASE_URL (`freshDatabase`), else the embedded one over its wire protocol.
 */
export async function databaseOnPool(options: PoolOptions = {}): Promise<Database & { drop(): Promise<void> }> {
  if (!process.env.TEST_DATABASE_URL) return embeddedDatabaseOnPool(options);
  const database = await freshDatabase(options);
  await applyMigrations(database.sql, MIGRATIONS_DIR);
  return database;
}
