import { SQL_MODEL } from "../../../generated/sql-model.ts";
import type { ModelTable } from "./model.ts";
import { columnRead, fieldOf, FromClause, isRelation, quote, StatementBuilder } from "./statement.ts";
import { whereSql } from "./where.ts";

/** The model stored in `table`. */
function modelOfTable(table: string): ModelTable {
  const model = Object.values(SQL_MODEL).find((candidate) => candidate.table === table);
  if (!model) throw new Error(`No model is stored in ${table}`);
  return model;
}

function scalarColumn(model: ModelTable, alias: string, name: string) {
  const field = fieldOf(model, name);
  if (isRelation(field)) throw new Error(`${name} is a relation, not a column of ${model.table}`);
  return { field, column: `${alias}.${quote(field.column)}` };
}

/**
 * Prisma's `aggregate({ where, _sum: { [summed]: true } })` (or `groupBy({ by, where, _sum })`, one row per value of
 * the fields `by`, named by field) as one statement: `total`, the sum as a bigint. The condition is Prisma's
 * where-language, compiled as every read's is (where.ts); one that does not translate throws (Untranslated).
 */
export function compileSum(table: string, where: object, summed: string, by: readonly string[] = []): { text: string; values: unknown[] } {
  const model = modelOfTable(table);
  const b = new StatementBuilder();
  const alias = b.alias();
  const from = new FromClause(b);
  const condition = whereSql(from, model, alias, where);
  const groups = by.map((name) => scalarColumn(model, alias, name));
  const keys = groups.map(({ field }, i) => `${columnRead(alias, field)} AS ${quote(by[i])}, `).join("");
  // The model's own column, unqualified (as the tallies' statements always were): were a relation joined by the condition
  // to have a column of that name, PostgreSQL would refuse the statement as ambiguous rather than misread it.
  const total = `sum(${quote(scalarColumn(model, alias, summed).field.column)})::bigint AS "total"`;
  const grouped = groups.length ? ` GROUP BY ${groups.map(({ column }) => column).join(", ")}` : "";
  return { text: `SELECT ${keys}${total} FROM ${quote(model.table)} AS ${alias}${from} WHERE ${condition}${grouped}`, values: b.values };
}
