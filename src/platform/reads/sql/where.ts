import type { ModelTable, RelationField, ScalarField } from "./model.ts";
import { fieldOf, type FromClause, isRelation, joinOn, modelNamed, quote, type StatementBuilder, sqlListTypeOf, typedParam, Untranslated } from "./statement.ts";

/**
 * Prisma's where-language as SQL, as Prisma's own query compiler writes it: AND/OR/NOT, a scalar's equals, in, notIn,
 * not, lt/lte/gt/gte, contains/startsWith/endsWith (ILIKE with mode "insensitive", the text unescaped as Prisma
 * sends it), a JSON path's equals, a list's has/hasSome/hasEvery, a to-one relation's condition or is (joined to
 * `from`, as Prisma joins it) and its absence or presence (null, is: null, isNot: null), a list relation's some/none
 * (EXISTS), compound unique keys. Anything else is Untranslated: the read goes to Prisma's client.
 */
export function whereSql(from: FromClause, model: ModelTable, alias: string, where: object | undefined, unique = false): string {
  if (!where) return "TRUE";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    // A compound unique key (offeringId_userId) is only a findUnique's, at the top of its condition.
    if (unique && !Object.hasOwn(model.fields, key) && !LOGICAL.has(key)) parts.push(compoundKeySql(from, model, alias, value));
    else parts.push(conditionSql(from, model, alias, key, value));
  }
  return all(parts);
}

const LOGICAL = new Set(["AND", "OR", "NOT"]);

function all(conditions: string[]) {
  const parts = conditions.filter((part) => part !== "TRUE");
  return parts.length === 0 ? "TRUE" : parts.length === 1 ? parts[0] : `(${parts.join(" AND ")})`;
}
const any = (parts: string[]) => (parts.length === 0 ? "FALSE" : parts.length === 1 ? parts[0] : `(${parts.join(" OR ")})`);
const listOf = (value: unknown): object[] => {
  const list: unknown[] = Array.isArray(value) ? value : [value];
  if (!list.every(isPlainObject)) throw new Untranslated("condition");
  return list as object[];
};

function conditionSql(from: FromClause, model: ModelTable, alias: string, key: string, value: unknown): string {
  switch (key) {
    case "AND":
      return all(listOf(value).map((w) => whereSql(from, model, alias, w)));
    case "OR":
      if (!Array.isArray(value)) throw new Untranslated("OR of an object");
      return any(value.map((w: object) => whereSql(from, model, alias, w)));
    case "NOT":
      return all(listOf(value).map((w) => `NOT (${whereSql(from, model, alias, w)})`));
  }
  const field = fieldOf(model, key);
  if (isRelation(field)) return relationSql(from, alias, key, field, value);
  return scalarSql(from, `${alias}.${quote(field.column)}`, field, value);
}

/** `offeringId_userId: { offeringId, userId }`: a compound unique key, each of its fields equal. */
function compoundKeySql(from: FromClause, model: ModelTable, alias: string, value: unknown): string {
  if (!isPlainObject(value)) throw new Untranslated("unknown where key");
  const parts = Object.entries(value).map(([name, v]) => {
    const field = fieldOf(model, name);
    if (isRelation(field) || !isScalarValue(v)) throw new Untranslated("compound key part");
    return scalarSql(from, `${alias}.${quote(field.column)}`, field, v);
  });
  return all(parts);
}

/** A condition or filter object: a literal's, or graphql-js's input objects (they have no prototype). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A value compared as it is (not a filter object): a Decimal or a Date is an object, but not a plain one. */
const isScalarValue = (value: unknown) => value === null || !isPlainObject(value);

/**
 * A relation's condition. A to-one relation is LEFT JOINed to the statement (or subquery) the condition is part of, once
 * per relation, and its condition said of the joined row, which must exist; a list relation's some/none/every is an EXISTS
 * over its rows — both as Prisma's compiler writes them, so the planner sees the statement Prisma's would be.
 */
function relationSql(from: FromClause, alias: string, name: string, relation: RelationField, value: unknown): string {
  const related = modelNamed(relation.model);
  const presence = relation.list ? undefined : presenceTest(value);
  if (presence) return `${from.join(alias, name, relation, related)}.${quote(relation.to[0])} IS ${presence === "absent" ? "" : "NOT "}NULL`;
  if (!isPlainObject(value)) throw new Untranslated("relation filter");
  if (relation.list) {
    const parts = Object.entries(value).map(([op, where]) => {
      if (where === undefined) return "TRUE";
      if (op !== "some" && op !== "none" && op !== "every") throw new Untranslated(`list relation ${op}`);
      if (!isPlainObject(where)) throw new Untranslated("list relation condition");
      const inner = from.subquery();
      const innerAlias = inner.b.alias();
      const said = whereSql(inner, related, innerAlias, where);
      // every: no row for which the condition is false (a row it says nothing of, NULL, does not count against it).
      const condition = op === "every" ? (said === "TRUE" ? "FALSE" : `NOT (${said})`) : said;
      const body = `SELECT 1 FROM ${quote(related.table)} AS ${innerAlias}${inner} WHERE ${joinOn(alias, relation, innerAlias)}${condition === "TRUE" ? "" : ` AND ${condition}`}`;
      return `${op === "some" ? "" : "NOT "}EXISTS (${body})`;
    });
    return all(parts);
  }
  const keys = Object.keys(value).filter((key) => value[key] !== undefined);
  if (keys.includes("isNot") || (keys.includes("is") && keys.length > 1)) throw new Untranslated("relation is/isNot");
  const where = keys.includes("is") ? value.is : value;
  if (!isPlainObject(where)) throw new Untranslated("relation is null");
  const joined = from.join(alias, name, relation, related);
  const exists = `${joined}.${quote(relation.to[0])} IS NOT NULL`;
  const condition = whereSql(from, related, joined, where);
  return condition === "TRUE" ? exists : `(${condition} AND ${exists})`;
}

/** A to-one relation's `null`, `is: null` (no related row) or `isNot: null` (one). */
function presenceTest(value: unknown): "absent" | "present" | undefined {
  if (value === null) return "absent";
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value).filter((key) => value[key] !== undefined);
  if (keys.length !== 1 || value[keys[0]] !== null) return undefined;
  return keys[0] === "is" ? "absent" : keys[0] === "isNot" ? "present" : undefined;
}

const COMPARISONS: Record<string, string> = { lt: "<", lte: "<=", gt: ">", gte: ">=" };

function scalarSql(from: FromClause, column: string, field: ScalarField, value: unknown): string {
  const b = from.b;
  if (isScalarValue(value)) return equalsSql(from, column, field, value);
  if (field.list) return listFilterSql(b, column, field, value as Record<string, unknown>);
  if (field.type === "Json") return jsonFilterSql(b, column, value as Record<string, unknown>);
  const filter = value as Record<string, unknown>;
  const insensitive = filter.mode === "insensitive";
  if (filter.mode !== undefined && filter.mode !== "insensitive" && filter.mode !== "default") throw new Untranslated("mode");
  const parts: string[] = [];
  for (const [op, operand] of Object.entries(filter)) {
    if (operand === undefined || op === "mode") continue;
    if (op === "equals") parts.push(insensitive ? likeSql(b, column, operand, "", "") : equalsSql(from, column, field, operand));
    else if (op === "in" || op === "notIn") {
      if (!Array.isArray(operand) || insensitive) throw new Untranslated(`${op} operand`);
      const match = operand.length ? inSql(from, column, field, operand) : "FALSE";
      parts.push(op === "in" ? match : operand.length ? `NOT (${match})` : "TRUE");
    } else if (op === "not") {
      if (isScalarValue(operand) && !insensitive) parts.push(operand === null ? `${column} IS NOT NULL` : `${column} <> ${typedParam(b, field, sendable(operand))}`);
      else if (isPlainObject(operand) && !insensitive) parts.push(`NOT (${scalarSql(from, column, field, operand)})`);
      else throw new Untranslated("not operand");
    } else if (COMPARISONS[op]) {
      if (operand === null || insensitive) throw new Untranslated("comparison with null");
      parts.push(`${column} ${COMPARISONS[op]} ${typedParam(b, field, sendable(operand))}`);
    } else if (op === "contains") parts.push(patternSql(b, column, operand, insensitive, "%", "%"));
    else if (op === "startsWith") parts.push(patternSql(b, column, operand, insensitive, "", "%"));
    else if (op === "endsWith") parts.push(patternSql(b, column, operand, insensitive, "%", ""));
    else throw new Untranslated(`scalar filter ${op}`);
  }
  return all(parts);
}

function equalsSql(from: FromClause, column: string, field: ScalarField, value: unknown): string {
  if (value === null) return `${column} IS NULL`;
  if (field.list || field.type === "Json") throw new Untranslated("equals on a list or JSON");
  return `${column} = ${typedParam(from.b, field, sendable(value))}`;
}

/**
 * `in` as one array parameter; an enum's values each as a text parameter cast to the enum, as Prisma sends them (the
 * planner then knows them when it plans, for the column's statistics; and PGlite knows no enum array type created after
 * it started).
 */
function inSql(from: FromClause, column: string, field: ScalarField, values: unknown[]): string {
  if (field.kind === "enum") return `${column} IN (${values.map((value) => typedParam(from.b, field, sendable(value))).join(", ")})`;
  return `${column} = ANY(${from.b.param(values.map(sendable), sqlListTypeOf(field))})`;
}

const patternSql = (b: StatementBuilder, column: string, text: unknown, insensitive: boolean, before: string, after: string) =>
  likeSql(b, column, text, before, after, insensitive ? "ILIKE" : "LIKE");

function likeSql(b: StatementBuilder, column: string, text: unknown, before: string, after: string, operator = "ILIKE") {
  if (typeof text !== "string") throw new Untranslated("pattern operand");
  return `${column}::text ${operator} ${b.param(`${before}${text}${after}`, "text")}`;
}

/** A list column's filter: Prisma takes exactly one of its operations. */
function listFilterSql(b: StatementBuilder, column: string, field: ScalarField, filter: Record<string, unknown>): string {
  const type = sqlListTypeOf(field);
  const operations = Object.entries(filter).filter(([, operand]) => operand !== undefined);
  if (operations.length !== 1) throw new Untranslated("list filter");
  const [[op, operand]] = operations;
  if (op === "has" && operand !== null) return `${column} @> ${b.param([sendable(operand)], type)}`;
  if (op === "hasSome" && Array.isArray(operand)) return `${column} && ${b.param(operand.map(sendable), type)}`;
  if (op === "hasEvery" && Array.isArray(operand)) return `${column} @> ${b.param(operand.map(sendable), type)}`;
  if (op === "isEmpty" && typeof operand === "boolean") return `array_length(${column}, 1) ${operand ? "IS NULL" : "> 0"}`;
  throw new Untranslated(`list filter ${op}`);
}

function jsonFilterSql(b: StatementBuilder, column: string, filter: Record<string, unknown>): string {
  const { path, equals, ...rest } = filter;
  if (Object.values(rest).some((v) => v !== undefined) || equals === undefined || equals === null || typeof equals === "object") {
    throw new Untranslated("JSON filter");
  }
  if (path === undefined) return `${column} = ${b.param(JSON.stringify(equals), "jsonb")}`;
  if (!Array.isArray(path) || !path.every((p) => typeof p === "string")) throw new Untranslated("JSON path");
  return `(${column} #> ${b.param(path, "text[]")}) = ${b.param(JSON.stringify(equals), "jsonb")}`;
}

/** A value as the driver sends it: dates in UTC as Prisma sends them, BigInt and Decimal as their text. */
export function sendable(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return String(value);
  return value;
}
