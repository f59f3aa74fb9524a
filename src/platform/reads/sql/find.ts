import { Prisma, type PrismaClient } from "../../../generated/prisma/client.ts";
import { readRows, readValue, type RowsStatement } from "./fused-reads.ts";
import type { ModelTable } from "./model.ts";
import { exactRead, fieldOf, FromClause, isRelation, modelNamed, quote, StatementBuilder, Untranslated } from "./statement.ts";
import { distinctSql, orderSql, sliceSql } from "./order.ts";
import { type RowShape, type Selection, shapeRows } from "./select.ts";
import { selectionKey, startWithSelectList, type StatementStart } from "./select-cache.ts";
import { tickBatches } from "./tick-batches.ts";
import { whereSql } from "./where.ts";

type Db = PrismaClient | Prisma.TransactionClient;
/** A model's delegate on the client: offeringUser, event, … */
export type ModelKey = Uncapitalize<Prisma.ModelName>;
type Delegate<K extends ModelKey> = Prisma.TransactionClient[K];
type FindArgs = Selection & { where?: object; orderBy?: unknown; take?: number; skip?: number; distinct?: unknown };

const modelNameOf = (key: ModelKey) => key[0].toUpperCase() + key.slice(1);

interface CompiledRead extends RowsStatement {
  shape: RowShape;
}

const FIND_ARGS = new Set(["select", "include", "where", "orderBy", "take", "skip", "distinct"]);

/** What `build` compiles, or undefined when something in it is not translated. */
function translated(key: ModelKey, build: () => CompiledRead): CompiledRead | undefined {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof Untranslated)) throw error;
    untranslatedRead(key, error.message);
    return undefined;
  }
}

/** Reads that went to Prisma's client because they did not translate, by model (the metric `gateway_sql_reads_untranslated_total`). */
export const untranslatedReads = new Map<string, number>();

/**
 * SQL_READS_STRICT (on in the tests): a read that does not translate throws, naming what did not, instead of going to
 * Prisma's client, so that the suites cannot pass on the slower path unnoticed. Otherwise it is counted.
 */
export const readRule = { strict: process.env.SQL_READS_STRICT === "1" };

function untranslatedRead(key: ModelKey, what: string) {
  if (readRule.strict) {
    const problem = `SQL_READS_STRICT: a read of ${key} does not translate to SQL (${what})`;
    console.error(problem);
    throw new Error(problem);
  }
  untranslatedReads.set(key, (untranslatedReads.get(key) ?? 0) + 1);
}

/** A path of fields from a model: to-one relations, then a scalar (["plan", "unitPrice"]). */
export type FieldPath = readonly string[];

/** A column of the statement per path, read exactly (exactRead) as "$key<i>", the relations on the way LEFT JOINed to `from`. */
function keyColumns(from: FromClause, model: ModelTable, alias: string, paths: readonly FieldPath[]): string {
  return paths
    .map((path, i) => {
      let [owner, at] = [model, alias];
      for (const name of path.slice(0, -1)) {
        const relation = fieldOf(owner, name);
        if (!isRelation(relation) || relation.list) throw new Error(`${path.join(".")}: ${name} is no to-one relation`);
        const related = modelNamed(relation.model);
        [owner, at] = [related, from.join(at, name, relation, related)];
      }
      const field = fieldOf(owner, path[path.length - 1]);
      if (isRelation(field)) throw new Error(`${path.join(".")} ends in a relation`);
      return `, ${exactRead(`${at}.${quote(field.column)}`, field)} AS ${quote(`$key${i}`)}`;
    })
    .join("");
}

interface StatementParts {
  where?: object;
  orderBy?: unknown;
  keys?: readonly FieldPath[];
  /** Prisma's distinct, translated when the read has no order and no slice (`sliced`: a take or skip). */
  distinct?: unknown;
  sliced?: boolean;
}

/** SELECT the started select list (and key columns) FROM the model's table under `where`, ordered (the caller adds the slice). */
function statement(key: ModelKey, parts: StatementParts, start: (model: ModelTable) => StatementStart, unique = false) {
  const model = modelNamed(modelNameOf(key));
  const { b, alias, list } = start(model);
  const from = new FromClause(b);
  const condition = whereSql(from, model, alias, parts.where, unique);
  const order = orderSql(model, alias, parts.orderBy, from);
  const keys = parts.keys ? keyColumns(from, model, alias, parts.keys) : "";
  const distinct = distinctSql(model, alias, parts.distinct, order !== "" || parts.sliced === true);
  const selected = `SELECT ${distinct}${list.columns}${keys}`;
  const text = `${selected} FROM ${quote(model.table)} AS ${alias}${from}${condition === "TRUE" ? "" : ` WHERE ${condition}`}${order}`;
  return { b, shape: list.shape, text, selectListEnd: selected.length };
}

/**
 * A findMany/findFirst/findUnique as one statement, or undefined when something in it is not translated. With `keys`,
 * each row also reads the value of each path exactly, as "$key0", "$key1", …
 */
export function compileFind(key: ModelKey, args: FindArgs, limit?: number, unique = false, keys?: readonly FieldPath[]): CompiledRead | undefined {
  return translated(key, () => {
    for (const name of Object.keys(args)) if (!FIND_ARGS.has(name) && (args as Record<string, unknown>)[name] !== undefined) throw new Untranslated(name);
    const parts = { where: args.where, orderBy: args.orderBy, keys, distinct: args.distinct, sliced: args.take !== undefined || args.skip !== undefined };
    const { b, shape, text, selectListEnd } = statement(key, parts, (model) => startWithSelectList(model, args), unique);
    const take = limit === undefined ? args.take : Math.min(limit, args.take ?? limit);
    return { text: `${text}${sliceSql(take, args.skip)}`, values: b.values, shape, selectListEnd };
  });
}

const COUNT_LIST = { columns: "COUNT(*) AS count", shape: [] };

/** A count of a model's rows under a condition as one statement, or undefined when the condition is not translated. */
export function compileCount(key: ModelKey, where: object | undefined): CompiledRead | undefined {
  return translated(key, () => {
    const { b, text, selectListEnd } = statement(key, { where }, () => {
      const b = new StatementBuilder();
      return { b, alias: b.alias(), list: COUNT_LIST };
    });
    return { text, values: b.values, shape: [], selectListEnd };
  });
}

/** Calls the delegate's own method: the reads this module does not translate go to Prisma's client unchanged. */
const prismaRead = (db: Db, key: ModelKey, method: "findMany" | "findFirst" | "findUnique" | "count", args: unknown) =>
  (db[key] as unknown as Record<typeof method, (args: unknown) => Promise<unknown>>)[method](args);

async function run<T>(db: Db, read: CompiledRead): Promise<T[]> {
  return shapeRows<T>(await readRows(db, read), read.shape);
}

/**
 * Prisma's findMany, findFirst and findUnique, answered alike but as one statement written here and sent to the pool
 * straight (runText) when their arguments translate: Prisma's client spends more CPU on a query than the driver does.
 * The statement reads what Prisma's would (same joins as subqueries of the row, same conditions, same order), and
 * the rows come back in Prisma's shape, dates, BigInt, Decimal and JSON alike (pinned against Prisma in
 * sql-reads.test.ts).
 */
export async function findMany<K extends ModelKey, A extends Prisma.Args<Delegate<K>, "findMany">>(db: Db, key: K, args: A): Promise<Prisma.Result<Delegate<K>, A, "findMany">> {
  const read = compileFind(key, args as FindArgs);
  if (!read) return prismaRead(db, key, "findMany", args) as Promise<Prisma.Result<Delegate<K>, A, "findMany">>;
  return (await run(db, read)) as Prisma.Result<Delegate<K>, A, "findMany">;
}

/**
 * The key columns' values of a row read with compileFind's `keys`, taken out of the row: last first, so that V8 keeps
 * the row a fast object (deleting a property other than the last added turns it into a dictionary).
 */
function takeKeys(row: Record<string, unknown>, count: number): unknown[] {
  const values: unknown[] = [];
  for (let i = count - 1; i >= 0; i--) {
    values[i] = row[`$key${i}`];
    delete row[`$key${i}`];
  }
  return values;
}

/**
 * findMany whose rows come with the exact values of `keys` (a page's sort keys, for its cursors), one array per row;
 * `keys` is undefined when the read is not translated and went to Prisma's client (then readKeys reads them).
 */
export async function findManyWithKeys<K extends ModelKey, A extends Prisma.Args<Delegate<K>, "findMany">>(
  db: Db,
  key: K,
  args: A,
  keys: readonly FieldPath[],
): Promise<{ rows: Prisma.Result<Delegate<K>, A, "findMany">; keys?: unknown[][] }> {
  const read = compileFind(key, args as FindArgs, undefined, false, keys);
  if (!read) return { rows: (await prismaRead(db, key, "findMany", args)) as Prisma.Result<Delegate<K>, A, "findMany"> };
  const rows = await run<Record<string, unknown>>(db, read);
  const values = rows.map((row) => takeKeys(row, keys.length));
  return { rows: rows as Prisma.Result<Delegate<K>, A, "findMany">, keys: values };
}

/** The exact values of `keys` of the rows with these ids, by id; a row that is gone has none. One statement. */
export async function readKeys(db: Db, key: ModelKey, keys: readonly FieldPath[], ids: readonly unknown[]): Promise<Map<unknown, unknown[]>> {
  const read = compileFind(key, { where: { id: { in: [...ids] } }, select: { id: true } }, undefined, false, keys);
  if (!read) throw new Error(`The keys of ${key} do not translate to SQL`);
  const rows = await run<Record<string, unknown>>(db, read);
  return new Map(rows.map((row) => [row.id, takeKeys(row, keys.length)]));
}

export const findFirst = <K extends ModelKey, A extends Prisma.Args<Delegate<K>, "findFirst">>(db: Db, key: K, args: A) =>
  findOne(db, key, "findFirst", args) as Promise<Prisma.Result<Delegate<K>, A, "findFirst">>;

export const findUnique = <K extends ModelKey, A extends Prisma.Args<Delegate<K>, "findUnique">>(db: Db, key: K, args: A) =>
  uniqueRow(db, key, args) as Promise<Prisma.Result<Delegate<K>, A, "findUnique">>;

export const findFirstOrThrow = <K extends ModelKey, A extends Prisma.Args<Delegate<K>, "findFirstOrThrow">>(db: Db, key: K, args: A) =>
  findOne(db, key, "findFirst", args).then((row) => row ?? notFound(key)) as Promise<Prisma.Result<Delegate<K>, A, "findFirstOrThrow">>;

export const findUniqueOrThrow = <K extends ModelKey, A extends Prisma.Args<Delegate<K>, "findUniqueOrThrow">>(db: Db, key: K, args: A) =>
  uniqueRow(db, key, args).then((row) => row ?? notFound(key)) as Promise<Prisma.Result<Delegate<K>, A, "findUniqueOrThrow">>;

/** What Prisma's findUniqueOrThrow and findFirstOrThrow throw when there is no row: its P2025. */
function notFound(key: ModelKey): never {
  throw new Prisma.PrismaClientKnownRequestError("An operation failed because it depends on one or more records that were required but not found. No record was found for a query.", {
    code: "P2025",
    clientVersion: Prisma.prismaVersion.client,
    meta: { modelName: modelNameOf(key) },
  });
}

type ById = Selection & { where: { id: string | number | bigint } };

/** A findUnique by id alone, with a selection that has a key (see selectionKey), may be read with others (readById). */
function byIdAlone(args: unknown): args is ById {
  const { where, ...selection } = args as FindArgs;
  const id = (where as { id?: unknown } | undefined)?.id;
  return Object.keys(where ?? {}).length === 1 && ["string", "number", "bigint"].includes(typeof id) && Object.keys(selection).every((name) => name === "select" || name === "include");
}

/** findUnique's row or null; those by id alone asked in the same tick, on the same connection and with the same selection, are read together. */
function uniqueRow(db: Db, key: ModelKey, args: unknown): Promise<unknown> {
  const selection = byIdAlone(args) ? selectionKey(modelNamed(modelNameOf(key)), args) : undefined;
  if (selection === undefined) return findOne(db, key, "findUnique", args);
  return readTogether(db, selection, { key, args: args as ById });
}

const readTogether = tickBatches<Db, { key: ModelKey; args: ById }, unknown>((db, reads) => readById(db, reads[0].key, reads.map((read) => read.args)));

const idText = (id: unknown) => String(id).toLowerCase();

/** The rows of findUniques by id alone with the same selection, or null each, as one statement (`id IN`) when there are several. */
async function readById(db: Db, key: ModelKey, reads: ById[]): Promise<unknown[]> {
  const { select, include } = reads[0];
  const read = reads.length > 1 ? compileFind(key, { select, include, where: { id: { in: reads.map((args) => args.where.id) } } }, undefined, false, [["id"]]) : undefined;
  if (!read) return Promise.all(reads.map((args) => findOne(db, key, "findUnique", args)));
  const rows = await run<Record<string, unknown>>(db, read);
  const byId = new Map(rows.map((row) => [idText(takeKeys(row, 1)[0]), row]));
  return reads.map((args) => byId.get(idText(args.where.id)) ?? null);
}

/** One row or null; a findUnique's condition may name a compound unique key. */
async function findOne(db: Db, key: ModelKey, method: "findFirst" | "findUnique", args: unknown): Promise<unknown> {
  const read = compileFind(key, args as FindArgs, 1, method === "findUnique");
  if (!read) return prismaRead(db, key, method, args);
  const [row] = await run(db, read);
  return row ?? null;
}

/** Prisma's count({ where }), as one statement when the condition translates. */
export async function count<K extends ModelKey>(db: Db, key: K, where?: Prisma.Args<Delegate<K>, "count">["where"]): Promise<number> {
  const read = compileCount(key, where);
  if (!read) return prismaRead(db, key, "count", { where }) as Promise<number>;
  return Number(await readValue(db, read));
}
