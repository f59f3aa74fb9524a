import { Prisma } from "../../../generated/prisma/client.ts";
import type { ModelTable, RelationField, ScalarField } from "./model.ts";
import { columnRead, fieldOf, FromClause, isRelation, joinOn, modelNamed, quote, type StatementBuilder, Untranslated } from "./statement.ts";
import { orderSql, sliceSql } from "./order.ts";
import { whereSql } from "./where.ts";

/** What a read asks of each row, in Prisma's terms: `select` (these fields), `include` (every scalar and these), neither (every scalar). */
export interface Selection {
  select?: Record<string, unknown> | null;
  include?: Record<string, unknown> | null;
}

/**
 * How a row read by the statement becomes Prisma's answer: the fields whose values need converting, relations
 * (read as JSON) with the conversions of their own rows. Empty when the driver's values are Prisma's already.
 */
export type RowShape = Array<{ field: string; convert: (value: unknown) => unknown }>;

/** A selection compiled: the select list of the statement and the conversions of each row it reads. */
export interface SelectList {
  columns: string;
  shape: RowShape;
}

/** The fields a selection reads, each with what it asks of a relation (true: its scalars). */
function selectedFields(model: ModelTable, selection: Selection): Array<[string, unknown]> {
  if (selection.select && selection.include) throw new Untranslated("select and include");
  const scalars = () => Object.entries(model.fields).filter(([, field]) => !isRelation(field)).map(([name]): [string, unknown] => [name, true]);
  if (selection.select) return Object.entries(selection.select).filter(([, value]) => value !== false && value !== undefined);
  const included = Object.entries(selection.include ?? {}).filter(([, value]) => value !== false && value !== undefined);
  return [...scalars(), ...included];
}

export function selectList(b: StatementBuilder, model: ModelTable, alias: string, selection: Selection): SelectList {
  const columns: string[] = [];
  const shape: RowShape = [];
  for (const [name, value] of selectedFields(model, selection)) {
    if (name === "_count") {
      columns.push(`${countsSql(b, model, alias, value)} AS ${quote(name)}`);
      continue;
    }
    const field = fieldOf(model, name);
    if (isRelation(field)) {
      const related = relationSql(b, alias, field, value);
      columns.push(`${related.sql} AS ${quote(name)}`);
      if (related.convert) shape.push({ field: name, convert: related.convert });
    } else {
      columns.push(`${columnRead(alias, field)} AS ${quote(name)}`);
    }
  }
  return { columns: columns.join(", "), shape };
}

/** JSON can hold at most this many fields built in one call (PostgreSQL passes a function at most 100 arguments). */
const MAX_JSON_FIELDS = 50;

/** A row of `model` as one JSON object, with how to convert the values JSON cannot carry as Prisma answers them. */
function objectSql(b: StatementBuilder, model: ModelTable, alias: string, selection: Selection) {
  const pairs: string[] = [];
  const shape: RowShape = [];
  const fields = selectedFields(model, selection);
  if (fields.length > MAX_JSON_FIELDS) throw new Untranslated("too many fields");
  for (const [name, value] of fields) {
    if (name === "_count") {
      pairs.push(`'_count', ${countsSql(b, model, alias, value)}`);
      continue;
    }
    const field = fieldOf(model, name);
    if (isRelation(field)) {
      const related = relationSql(b, alias, field, value);
      pairs.push(`'${name}', ${related.sql}`);
      if (related.convert) shape.push({ field: name, convert: related.convert });
    } else {
      const json = jsonValue(alias, field);
      pairs.push(`'${name}', ${json.sql}`);
      if (json.convert) shape.push({ field: name, convert: json.convert });
    }
  }
  return { sql: `JSONB_BUILD_OBJECT(${pairs.join(", ")})`, shape };
}

const dateOf = (value: unknown) => (value === null ? null : new Date(value as string));
const utcDateOf = (value: unknown) => (value === null ? null : new Date(`${value as string}Z`));

/** A scalar inside JSON, as SQL reads it there, and how its JSON value becomes Prisma's. */
function jsonValue(alias: string, field: ScalarField): { sql: string; convert?: (value: unknown) => unknown } {
  const column = `${alias}.${quote(field.column)}`;
  if (field.list && ["DateTime", "BigInt", "Decimal", "Bytes"].includes(field.type)) throw new Untranslated("list of dates or numbers in JSON");
  switch (field.type) {
    case "DateTime":
      // timestamptz and date carry their zone (UTC for a date); a timestamp without one holds UTC, as Prisma writes it.
      return { sql: column, convert: field.native === "Timestamptz" || field.native === "Date" ? dateOf : utcDateOf };
    case "BigInt":
      return { sql: `${column}::text`, convert: (value) => (value === null ? null : BigInt(value as string)) };
    case "Decimal":
      return { sql: `${column}::text`, convert: (value) => (value === null ? null : new Prisma.Decimal(value as string)) };
    case "Bytes":
      throw new Untranslated("bytes in JSON");
    default:
      return { sql: column };
  }
}

const convertRow = (shape: RowShape) => (row: Record<string, unknown>) => {
  for (const { field, convert } of shape) row[field] = convert(row[field]);
  return row;
};

/** Applies a row shape to the rows the driver read (in place: they are the driver's fresh objects). */
export function shapeRows<T>(rows: Array<Record<string, unknown>>, shape: RowShape): T[] {
  if (shape.length) rows.forEach(convertRow(shape));
  return rows as T[];
}

/**
 * Prisma's `_count` of list relations (`true`: every one; `{ select: { plans: true, resources: { where } } }`: these):
 * one JSON object of counts, each a subquery of the row's own, as Prisma answers them (numbers).
 */
function countsSql(b: StatementBuilder, model: ModelTable, owner: string, value: unknown): string {
  const listRelations = Object.entries(model.fields).filter((entry): entry is [string, RelationField] => isRelation(entry[1]) && entry[1].list);
  const asked = value === true ? listRelations.map(([name]): [string, unknown] => [name, true]) : countsAsked(value);
  const pairs = asked.map(([name, args]) => {
    const relation = fieldOf(model, name);
    if (!isRelation(relation) || !relation.list) throw new Untranslated(`_count of ${name}`);
    const where = args === true ? undefined : (args as { where?: object }).where;
    const related = modelNamed(relation.model);
    const alias = b.alias();
    const joins = new FromClause(b);
    const condition = whereSql(joins, related, alias, where);
    return `'${name}', (SELECT COUNT(*) FROM ${quote(related.table)} AS ${alias}${joins} WHERE ${joinOn(owner, relation, alias)}${condition === "TRUE" ? "" : ` AND ${condition}`})`;
  });
  return `JSONB_BUILD_OBJECT(${pairs.join(", ")})`;
}

function countsAsked(value: unknown): Array<[string, unknown]> {
  const select = (value as { select?: unknown } | null)?.select;
  if (typeof value !== "object" || value === null || Object.keys(value).some((key) => key !== "select") || typeof select !== "object" || select === null) {
    throw new Untranslated("_count arguments");
  }
  const asked = Object.entries(select).filter(([, args]) => args !== false && args !== undefined);
  for (const [name, args] of asked) {
    if (args !== true && (typeof args !== "object" || args === null || Object.keys(args).some((key) => key !== "where"))) throw new Untranslated(`_count of ${name}`);
  }
  return asked;
}

const RELATION_ARGS = new Set(["select", "include", "where", "orderBy", "take", "skip"]);

/** A relation read in a subquery of the row's own: one JSON object (or null), or a JSON array of them. */
function relationSql(b: StatementBuilder, owner: string, relation: RelationField, value: unknown) {
  const args = (value === true ? {} : value) as Record<string, unknown>;
  if (typeof args !== "object" || args === null || Object.keys(args).some((key) => !RELATION_ARGS.has(key) && args[key] !== undefined)) {
    throw new Untranslated("relation arguments");
  }
  const related = modelNamed(relation.model);
  const alias = b.alias();
  const object = objectSql(b, related, alias, args as Selection);
  const from = `FROM ${quote(related.table)} AS ${alias} WHERE ${joinOn(owner, relation, alias)}`;
  if (!relation.list) {
    if (args.where !== undefined || args.orderBy !== undefined || args.take !== undefined || args.skip !== undefined) throw new Untranslated("to-one arguments");
    const convertOne = convertRow(object.shape);
    return {
      sql: `(SELECT ${object.sql} ${from} LIMIT 1)`,
      convert: object.shape.length ? (row: unknown) => (row === null ? null : convertOne(row as Record<string, unknown>)) : undefined,
    };
  }
  const joins = new FromClause(b);
  const where = whereSql(joins, related, alias, args.where as object | undefined);
  const order = orderSql(related, alias, args.orderBy, joins);
  const rows = `SELECT ${object.sql} AS d FROM ${quote(related.table)} AS ${alias}${joins} WHERE ${joinOn(owner, relation, alias)}${where === "TRUE" ? "" : ` AND ${where}`}${order}${sliceSql(args.take, args.skip)}`;
  const convertMany = convertRow(object.shape);
  return {
    sql: `(SELECT COALESCE(JSONB_AGG(${alias}_rows.d), '[]'::jsonb) FROM (${rows}) AS ${alias}_rows)`,
    convert: object.shape.length ? (list: unknown) => (list as Array<Record<string, unknown>>).map(convertMany) : undefined,
  };
}
