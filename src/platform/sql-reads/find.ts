import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { runText } from "../lone-statement.ts";
import type { ModelTable } from "./model.ts";
import { FromClause, modelNamed, quote, StatementBuilder, Untranslated } from "./statement.ts";
import { orderSql, type RowShape, type Selection, shapeRows, sliceSql } from "./select.ts";
import { startWithSelectList, type StatementStart } from "./select-cache.ts";
import { whereSql } from "./where.ts";

type Db = PrismaClient | Prisma.TransactionClient;
/** A model's delegate on the client: offeringUser, event, … */
export type ModelKey = Uncapitalize<Prisma.ModelName>;
type Delegate<K extends ModelKey> = Prisma.TransactionClient[K];
type FindArgs = Selection & { where?: object; orderBy?: unknown; take?: number; skip?: number };

const modelNameOf = (key: ModelKey) => key[0].toUpperCase() + key.slice(1);

interface CompiledRead {
  text: string;
  values: unknown[];
  shape: RowShape;
}

const FIND_ARGS = new Set(["select", "include", "where", "orderBy", "take", "skip"]);

/** What `build` compiles, or undefined when something in it is not translated. */
function translated(build: () => CompiledRead): CompiledRead | undefined {
  try {
    return build();
  } catch (error) {
    if (error instanceof Untranslated) return undefined;
    throw error;
  }
}

/** SELECT the started select list FROM the model's table under `where` (the caller adds order and slice). */
function statement(key: ModelKey, where: object | undefined, start: (model: ModelTable) => StatementStart, unique = false) {
  const model = modelNamed(modelNameOf(key));
  const { b, alias, list } = start(model);
  const from = new FromClause(b);
  const condition = whereSql(from, model, alias, where, unique);
  return { b, model, alias, shape: list.shape, text: `SELECT ${list.columns} FROM ${quote(model.table)} AS ${alias}${from}${condition === "TRUE" ? "" : ` WHERE ${condition}`}` };
}

/** A findMany/findFirst/findUnique as one statement, or undefined when something in it is not translated. */
export function compileFind(key: ModelKey, args: FindArgs, limit?: number, unique = false): CompiledRead | undefined {
  return translated(() => {
    for (const name of Object.keys(args)) if (!FIND_ARGS.has(name) && (args as Record<string, unknown>)[name] !== undefined) throw new Untranslated(name);
    const { b, model, alias, shape, text } = statement(key, args.where, (model) => startWithSelectList(model, args), unique);
    const take = limit === undefined ? args.take : Math.min(limit, args.take ?? limit);
    return { text: `${text}${orderSql(model, alias, args.orderBy)}${sliceSql(take, args.skip)}`, values: b.values, shape };
  });
}

const COUNT_LIST = { columns: "COUNT(*) AS count", shape: [] };

/** A count of a model's rows under a condition as one statement, or undefined when the condition is not translated. */
export function compileCount(key: ModelKey, where: object | undefined): CompiledRead | undefined {
  return translated(() => {
    const { b, text } = statement(key, where, () => {
      const b = new StatementBuilder();
      return { b, alias: b.alias(), list: COUNT_LIST };
    });
    return { text, values: b.values, shape: [] };
  });
}

/** Calls the delegate's own method: the reads this module does not translate go to Prisma's client unchanged. */
const prismaRead = (db: Db, key: ModelKey, method: "findMany" | "findFirst" | "findUnique" | "count", args: unknown) =>
  (db[key] as unknown as Record<typeof method, (args: unknown) => Promise<unknown>>)[method](args);

async function run<T>(db: Db, read: CompiledRead): Promise<T[]> {
  return shapeRows<T>(await runText<Record<string, unknown>>(db, read.text, read.values), read.shape);
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

export const findFirst = <K extends ModelKey, A extends Prisma.Args<Delegate<K>, "findFirst">>(db: Db, key: K, args: A) =>
  findOne(db, key, "findFirst", args) as Promise<Prisma.Result<Delegate<K>, A, "findFirst">>;

export const findUnique = <K extends ModelKey, A extends Prisma.Args<Delegate<K>, "findUnique">>(db: Db, key: K, args: A) =>
  findOne(db, key, "findUnique", args) as Promise<Prisma.Result<Delegate<K>, A, "findUnique">>;

/** One row or null; a findUnique's condition may name a compound unique key. */
async function findOne(db: Db, key: ModelKey, method: "findFirst" | "findUnique", args: unknown): Promise<unknown> {
  const read = compileFind(key, args as FindArgs, 1, method === "findUnique");
  if (!read) return prismaRead(db, key, method, args);
  const [row] = await run(db, read);
  return row ?? null;
}

/** Prisma's count({ where }), as one statement when the condition translates. */
export async function count<K extends ModelKey>(db: Db, key: K, where: Prisma.Args<Delegate<K>, "count">["where"]): Promise<number> {
  const read = compileCount(key, where);
  if (!read) return prismaRead(db, key, "count", { where }) as Promise<number>;
  const [row] = await runText<{ count: bigint }>(db, read.text, read.values);
  return Number(row.count);
}
