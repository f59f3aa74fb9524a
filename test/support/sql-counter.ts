import { MAINTENANCE_TAG } from "../../src/platform/database/lone-statement.ts";
import { AsyncLocalStorage } from "node:async_hooks";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import pg from "pg";

export interface SqlCount<T> {
  result: T;
  statements: number;
  /** The text of each statement, in the order sent (to show what changed when a count does). */
  texts: string[];
  /** Statements other than transaction control, which the drivers send differently (PGlite: none; pg: BEGIN, COMMIT, and our timeout's backend pid). */
  work: number;
}

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SELECT pg_backend_pid\(\))/i;

type Queryable = { query: (...args: unknown[]) => unknown };

/** The prototype that defines `query` (PGlite's lives on a base class). */
function owningPrototype(proto: object): Queryable {
  let current = proto;
  while (!Object.prototype.hasOwnProperty.call(current, "query")) current = Object.getPrototypeOf(current);
  return current as Queryable;
}

const textOf = (first: unknown) => (typeof first === "string" ? first : String((first as { text?: string } | undefined)?.text ?? first));

/** The run whose statements are counted, for `of: "run"`: its async context, into which its statements are sent. */
const counting = new AsyncLocalStorage<true>();

/**
 * Counts the SQL statements sent to the database while `run` runs, at the driver: PGlite's `query` (embedded) and
 * node-postgres' `Client.query` (PostgreSQL; Pool.query and transactions go through it too). `of: "database"` (the
 * default) counts whatever is sent meanwhile (what a write makes subscribers read, say), so nothing else may use the
 * database then; `of: "run"` counts only what `run` itself sends. Neither counts the app's own timed work (a tally
 * fold, its statements tagged MAINTENANCE_TAG), which no request made.
 */
export async function countSql<T>(run: () => Promise<T>, { of = "database" }: { of?: "database" | "run" } = {}): Promise<SqlCount<T>> {
  const texts: string[] = [];
  const record = (text: string) => {
    if (text.startsWith(MAINTENANCE_TAG)) return;
    if (of === "database" || counting.getStore()) texts.push(text);
  };
  const targets = [owningPrototype(PGlite.prototype), pg.Client.prototype as unknown as Queryable];
  const originals = targets.map((target) => target.query);
  targets.forEach((target, i) => {
    target.query = function (this: unknown, ...args: unknown[]) {
      record(textOf(args[0]));
      return originals[i].apply(this, args);
    };
  });
  // PGlite runs a transaction's statements through a `tx` object of the transaction's own: count those too.
  const pglite = PGlite.prototype;
  const transaction = pglite.transaction;
  pglite.transaction = function <T>(this: PGlite, callback: (tx: Transaction) => Promise<T>) {
    const counted = (tx: Transaction) => {
      const query = tx.query.bind(tx);
      tx.query = (...args) => {
        record(textOf(args[0]));
        return query(...args);
      };
      return callback(tx);
    };
    return transaction.bind(this)(counted);
  };
  try {
    const result = await (of === "run" ? counting.run(true, run) : run());
    return { result, statements: texts.length, texts, work: texts.filter((text) => !TRANSACTION_CONTROL.test(text)).length };
  } finally {
    targets.forEach((target, i) => (target.query = originals[i]));
    pglite.transaction = transaction;
  }
}
