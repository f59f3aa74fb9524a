import type { Prisma, PrismaClient } from "../../../generated/prisma/client.ts";
import { runText } from "../../database/lone-statement.ts";

type Db = PrismaClient | Prisma.TransactionClient;

/** A statement as sql-reads compiles it: its parameters are written `$n::type` (StatementBuilder.param), and only they. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** A statement of rows, and where its select list ends (before its FROM), where values may join it. */
export interface RowsStatement extends Statement {
  selectListEnd: number;
}

interface Waiting<Item, Answer> {
  item: Item;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

interface Gathered {
  rows: Array<Waiting<RowsStatement, Array<Record<string, unknown>>>>;
  values: Array<Waiting<Statement, unknown>>;
}

const PARAMETER = /\$(\d+)::/g;

/** `statement`'s text with its parameters renumbered to follow `before` others. */
const followingParameters = (text: string, before: number) => text.replace(PARAMETER, (_, n: string) => `$${Number(n) + before}::`);

const columnOf = (i: number) => `$value${i}`;

const settle = <Answer>(waiting: Waiting<unknown, Answer>, answer: Promise<Answer>) => answer.then(waiting.resolve, waiting.reject);

async function runValue(db: Db, { text, values }: Statement): Promise<unknown> {
  const [row] = await runText<Record<string, unknown>>(db, text, values);
  return row ? Object.values(row)[0] : null;
}

/**
 * The values asked in the tick ride along with the first rows statement, as its last columns (`(SELECT sum(…) …) AS
 * "$value0"`, which PostgreSQL computes once): a page and its count are one statement. Should the statement find no
 * rows, the values are read alone after all. The columns are taken out of the rows last first, which keeps them fast
 * objects in V8.
 */
async function runTogether(db: Db, host: Waiting<RowsStatement, Array<Record<string, unknown>>>, values: Gathered["values"]) {
  const { text, values: parameters, selectListEnd } = host.item;
  const all = [...parameters];
  const columns = values.map(({ item }, i) => {
    const column = `, (${followingParameters(item.text, all.length)}) AS "${columnOf(i)}"`;
    all.push(...item.values);
    return column;
  });
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await runText<Record<string, unknown>>(db, `${text.slice(0, selectListEnd)}${columns.join("")}${text.slice(selectListEnd)}`, all);
  } catch (error) {
    [host, ...values].forEach((waiting) => waiting.reject(error));
    return;
  }
  values.forEach((waiting, i) => (rows.length ? waiting.resolve(rows[0][columnOf(i)]) : settle(waiting, runValue(db, waiting.item))));
  for (const row of rows) for (let i = values.length - 1; i >= 0; i--) delete row[columnOf(i)];
  host.resolve(rows);
}

let pending = new Map<Db, Gathered>();

function dispatch() {
  const gathered = pending;
  pending = new Map();
  for (const [db, { rows, values }] of gathered) {
    const fused = rows.length > 0 && values.length > 0;
    if (fused) void runTogether(db, rows[0], values);
    else values.forEach((waiting) => settle(waiting, runValue(db, waiting.item)));
    rows.slice(fused ? 1 : 0).forEach((waiting) => settle(waiting, runText<Record<string, unknown>>(db, waiting.item.text, waiting.item.values)));
  }
}

function gather(db: Db): Gathered {
  if (!pending.size) process.nextTick(dispatch);
  let gathered = pending.get(db);
  if (!gathered) pending.set(db, (gathered = { rows: [], values: [] }));
  return gathered;
}

/**
 * The rows of `statement`, read in the next tick, with any values asked meanwhile on the same client: a list's page and
 * its count. Reads of concurrent requests that meet in one tick may share a statement, as findUniques by id do
 * (tick-batches.ts); each still gets its own answer.
 */
export const readRows = (db: Db, statement: RowsStatement) =>
  new Promise<Array<Record<string, unknown>>>((resolve, reject) => gather(db).rows.push({ item: statement, resolve, reject }));

/** The one value of `statement` (one row of one column: a count, a sum), read with a rows statement asked in the same tick if any. */
export const readValue = (db: Db, statement: Statement) => new Promise<unknown>((resolve, reject) => gather(db).values.push({ item: statement, resolve, reject }));
