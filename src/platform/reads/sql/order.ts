import type { ModelTable } from "./model.ts";
import { fieldOf, type FromClause, isRelation, modelNamed, quote, Untranslated } from "./statement.ts";

const DIRECTIONS: Record<string, string> = { asc: "ASC", desc: "DESC" };
const NULLS: Record<string, string> = { first: " NULLS FIRST", last: " NULLS LAST" };

const isOrderObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The ORDER BY terms of one orderBy entry over the model at `alias`: its scalars, and the scalars of to-one relations,
 * LEFT JOINed to `from` as Prisma's compiler joins them (a row without the related row sorts as a null).
 */
function orderTerms(from: FromClause | undefined, model: ModelTable, alias: string, entry: unknown): string[] {
  if (!isOrderObject(entry)) throw new Untranslated("order");
  return Object.entries(entry).flatMap(([name, order]) => {
    if (order === undefined) return [];
    const field = fieldOf(model, name);
    if (isRelation(field)) {
      if (field.list || !from || !isOrderObject(order)) throw new Untranslated("order by a relation");
      const related = modelNamed(field.model);
      return orderTerms(from, related, from.join(alias, name, field, related), order);
    }
    const { sort, nulls } = typeof order === "string" ? { sort: order, nulls: undefined } : (order as { sort: string; nulls?: string });
    const direction = DIRECTIONS[sort];
    if (!direction || (nulls !== undefined && !NULLS[nulls])) throw new Untranslated("order");
    return [`${alias}.${quote(field.column)} ${direction}${nulls ? NULLS[nulls] : ""}`];
  });
}

/**
 * Prisma's orderBy as ORDER BY (nulls where Prisma puts them: PostgreSQL's default unless named): the model's own
 * scalars, and with `from` (the statement's FROM clause) those of its to-one relations.
 */
export function orderSql(model: ModelTable, alias: string, orderBy: unknown, from?: FromClause): string {
  if (orderBy === undefined) return "";
  const terms = (Array.isArray(orderBy) ? orderBy : [orderBy]).flatMap((entry) => orderTerms(from, model, alias, entry));
  return terms.length ? ` ORDER BY ${terms.join(", ")}` : "";
}

/** take and skip as LIMIT and OFFSET (a negative take, Prisma's "from the end", is not translated). */
export function sliceSql(take: unknown, skip: unknown): string {
  if ((take !== undefined && (typeof take !== "number" || take < 0 || !Number.isInteger(take))) || (skip !== undefined && (typeof skip !== "number" || skip < 0 || !Number.isInteger(skip)))) {
    throw new Untranslated("take or skip");
  }
  return `${take === undefined ? "" : ` LIMIT ${take}`}${skip ? ` OFFSET ${skip}` : ""}`;
}

/**
 * Prisma's distinct as DISTINCT ON, where it does not matter which row of each group is kept: without an order or a
 * slice, Prisma keeps the first row of each it is given, in no order either. Scalar columns that compare only (no list, no JSON).
 */
export function distinctSql(model: ModelTable, alias: string, distinct: unknown, orderedOrSliced: boolean): string {
  if (distinct === undefined) return "";
  const names = Array.isArray(distinct) ? distinct : [distinct];
  if (orderedOrSliced || !names.length) throw new Untranslated("distinct with an order or a slice");
  const columns = names.map((name) => {
    const field = fieldOf(model, String(name));
    if (isRelation(field) || field.list || field.type === "Json") throw new Untranslated("distinct");
    return `${alias}.${quote(field.column)}`;
  });
  return `DISTINCT ON (${columns.join(", ")}) `;
}
