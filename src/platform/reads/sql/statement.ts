import type { Field, ModelTable, RelationField, ScalarField } from "./model.ts";
import { SQL_MODEL } from "../../../generated/sql-model.ts";

/** Something this compiler does not translate: the read goes to Prisma's client instead, which knows it all. */
export class Untranslated extends Error {
  constructor(what: string) {
    super(what);
  }
}

/** A statement under construction: its parameters ($1, $2, …) and table aliases (t0, t1, …). */
export class StatementBuilder {
  /** A statement's start: no parameters, no aliases; or, past a select list compiled earlier, its parameters and aliases. */
  constructor(
    readonly values: unknown[] = [],
    private aliases = 0,
  ) {}

  /** How many aliases are taken. */
  get aliasCount(): number {
    return this.aliases;
  }

  param(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }

  alias(): string {
    return `t${this.aliases++}`;
  }
}

export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The FROM clause of a statement or of one of its subqueries, past its first table: the to-one relations its
 * conditions join (LEFT JOIN, at most one row each, so no row is repeated), each once per owner and relation.
 */
export class FromClause {
  private readonly joins: string[] = [];
  private readonly joined = new Map<string, string>();

  constructor(readonly b: StatementBuilder) {}

  /** The alias `relation` (named `name` on the model at `owner`) is joined as. */
  join(owner: string, name: string, relation: RelationField, related: ModelTable): string {
    const key = `${owner}.${name}`;
    let alias = this.joined.get(key);
    if (!alias) {
      alias = this.b.alias();
      this.joined.set(key, alias);
      this.joins.push(` LEFT JOIN ${quote(related.table)} AS ${alias} ON ${joinOn(owner, relation, alias)}`);
    }
    return alias;
  }

  /** The FROM clause of a subquery (an EXISTS): joins of its own, the statement's parameters and aliases. */
  subquery(): FromClause {
    return new FromClause(this.b);
  }

  toString(): string {
    return this.joins.join("");
  }
}

export function modelNamed(name: string): ModelTable {
  const model = SQL_MODEL[name];
  if (!model) throw new Untranslated(`model ${name}`);
  return model;
}

export function fieldOf(model: ModelTable, name: string): Field {
  const field = Object.hasOwn(model.fields, name) ? model.fields[name] : undefined;
  if (!field) throw new Untranslated(`field ${name}`);
  return field;
}

export const isRelation = (field: Field): field is RelationField => field.kind === "object";

const NATIVE_TYPES: Record<string, string> = {
  Uuid: "uuid",
  Timestamptz: "timestamptz",
  Timestamp: "timestamp",
  Date: "date",
  Char: "bpchar",
  VarChar: "text",
  Text: "text",
};

const PRISMA_TYPES: Record<string, string> = {
  String: "text",
  Int: "int4",
  BigInt: "int8",
  Float: "float8",
  Decimal: "numeric",
  Boolean: "bool",
  DateTime: "timestamp",
  Json: "jsonb",
};

/** The SQL type a parameter compared with `field` is cast to (an enum's own type; text for character columns). */
export function sqlTypeOf(field: ScalarField): string {
  if (field.kind === "enum") return quote(field.type);
  const type = (field.native && NATIVE_TYPES[field.native]) ?? PRISMA_TYPES[field.type];
  if (!type) throw new Untranslated(`type ${field.type}`);
  return type;
}

/**
 * The SQL type of a list parameter compared with `field`'s values. An enum's list is sent as text[] and cast: PGlite
 * sends an array by its type, and knows no type created after it started (a fresh database's enums).
 */
export const sqlListTypeOf = (field: ScalarField) => (field.kind === "enum" ? `text[]::${sqlTypeOf(field)}[]` : `${sqlTypeOf(field)}[]`);

/** A parameter compared with `field`: cast to its type; an enum's sent as text and cast, as Prisma sends it. */
export const typedParam = (b: StatementBuilder, field: ScalarField, value: unknown) =>
  field.kind === "enum" ? `CAST(${b.param(value, "text")} AS ${sqlTypeOf(field)})` : b.param(value, sqlTypeOf(field));

/** A column as a statement reads it: enums as text (node-postgres knows no enum's type). */
export function columnRead(alias: string, field: ScalarField): string {
  const column = `${alias}.${quote(field.column)}`;
  if (field.kind !== "enum") return column;
  return field.list ? `${column}::text[]` : `${column}::text`;
}

const ISO_INSTANT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * A column read to the last digit as text where JavaScript's value would round it: a date or instant as ISO 8601 in
 * UTC to the microsecond (a Date holds milliseconds; a day is its midnight), a Decimal or BigInt as its digits, an
 * enum as its name. Other types read as the driver reads them, which is exact already.
 */
export function exactRead(column: string, field: ScalarField): string {
  if (field.type === "DateTime") {
    const utc = field.native === "Timestamptz" ? `${column} AT TIME ZONE 'UTC'` : field.native === "Date" ? `${column}::timestamp` : column;
    return `to_char(${utc}, ${ISO_INSTANT})`;
  }
  return field.type === "Decimal" || field.type === "BigInt" || field.kind === "enum" ? `${column}::text` : column;
}

/** The join of a relation: the related table's alias matched to the owner's, column by column. */
export const joinOn = (owner: string, relation: RelationField, related: string) =>
  relation.from.map((column, i) => `${related}.${quote(relation.to[i])} = ${owner}.${quote(column)}`).join(" AND ");
