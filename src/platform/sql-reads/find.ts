import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { runText } from "../lone-statement.ts";
import { modelNamed, quote, StatementBuilder, Untranslated } from "./statement.ts";
import { orderSql, type RowShape, type Selection, selectList, shapeRows, sliceSql } from "./select.ts";
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

/** A findMany/findFirst as one statement, or undefined when something in it is not translated. */
export function compileFind(key: ModelKey, args: FindArgs, limit?: number, unique = false): CompiledRead | undefined {
  try {
    for (const name of Object.keys(args)) if (!FIND_ARGS.has(name) && (args as Record<string, unknown>)[name] !== undefined) throw new Untranslated(name);
    const model = modelNamed(modelNameOf(key));
    const b = new StatementBuilder();
    const alias = b.alias();
    const { columns, shape } = selectList(b, model, alias, args);
    const where = whereSql(b, model, alias, args.where, unique);
    const take = limit === undefined ? args.take : Math.min(limit, args.take ?? limit);
    const text = `SELECT ${columns} FROM ${quote(model.table)} AS ${alias}${where === "TRUE" ? "" : ` WHERE ${where}`}${orderSql(model, alias, args.orderBy)}${sliceSql(take, args.skip)}`;
    return { text, values: b.values, shape };
  } catch (error) {
    if (error instanceof Untranslated) return undefined;
    throw error;
  }
}

/** A count(*) of a model under a condition as one statement, or undefined when the condition is not translated. */
export function compileCount(key: ModelKey, where: object | undefined): CompiledRead | undefined {
  try {
    const model = modelNamed(modelNameOf(key));
    const b = new StatementBuilder();
    const alias = b.alias();
    const condition = whereSql(b, model, alias, where);
    return { text: `SELECT COUNT(*)::int AS count FROM ${quote(model.table)} AS ${alias}${condition === "TRUE" ? "" : ` WHERE ${condition}`}`, values: b.values, shape: [] };
  } catch (error) {
    if (error instanceof Untranslated) return undefined;
    throw error;
  }
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

export async function findFirst<K extends ModelKey, A extends Prisma.Args<Delegate<K>, "findFirst">>(db: Db, key: K, args: A): Promise<Prisma.Result<Delegate<K>, A, "findFirst">> {
  const read = compileFind(key, args as FindArgs, 1);
  if (!read) return prismaRead(db, key, "findFirst", args) as Promise<Prisma.Result<Delegate<K>, A, "findFirst">>;
  const [row] = await run<Prisma.Result<Delegate<K>, A, "findFirst">>(db, read);
  return row ?? (null as Prisma.Result<Delegate<K>, A, "findFirst">);
}

export async function findUnique<K extends ModelKey, A extends Prisma.Args<Delegate<K>, "findUnique">>(db: Db, key: K, args: A): Promise<Prisma.Result<Delegate<K>, A, "findUnique">> {
  const read = compileFind(key, args as FindArgs, 1, true);
  if (!read) return prismaRead(db, key, "findUnique", args) as Promise<Prisma.Result<Delegate<K>, A, "findUnique">>;
  const [row] = await run<Prisma.Result<Delegate<K>, A, "findUnique">>(db, read);
  return row ?? (null as Prisma.Result<Delegate<K>, A, "findUnique">);
}

/** Prisma's count({ where }), as one statement when the condition translates. */
export async function count<K extends ModelKey>(db: Db, key: K, where: Prisma.Args<Delegate<K>, "count">["where"]): Promise<number> {
  const read = compileCount(key, where);
  if (!read) return prismaRead(db, key, "count", { where }) as Promise<number>;
  const [row] = await runText<{ count: number }>(db, read.text, read.values);
  return row.count;
}
