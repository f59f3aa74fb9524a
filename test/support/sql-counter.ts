import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export interface SqlCount<T> {
  result: T;
  statements: number;
  /** The text of each statement, in the order sent (to show what changed when a count does). */
  texts: string[];
}

type Queryable = { query: (...args: unknown[]) => unknown };

/** The prototype that defines `query` (PGlite's lives on a base class). */
function owningPrototype(proto: object): Queryable {
  let current = proto;
  while (!Object.prototype.hasOwnProperty.call(current, "query")) current = Object.getPrototypeOf(current);
  return current as Queryable;
}

const textOf = (first: unknown) => (typeof first === "string" ? first : String((first as { text?: string } | undefined)?.text ?? first));

/**
 * Counts the SQL statements sent to the database while `run` runs, at the driver: PGlite's `query` (embedded) and
 * node-postgres' `Client.query` (PostgreSQL; Pool.query and transactions go through it too). Nothing else may
 * use the database meanwhile, so run it between requests, not alongside them.
 */
export async function countSql<T>(run: () => Promise<T>): Promise<SqlCount<T>> {
  const texts: string[] = [];
  const targets = [owningPrototype(PGlite.prototype), pg.Client.prototype as unknown as Queryable];
  const originals = targets.map((target) => target.query);
  targets.forEach((target, i) => {
    target.query = function (this: unknown, ...args: unknown[]) {
      texts.push(textOf(args[0]));
      return originals[i].apply(this, args);
    };
  });
  try {
    const result = await run();
    return { result, statements: texts.length, texts };
  } finally {
    targets.forEach((target, i) => (target.query = originals[i]));
  }
}
