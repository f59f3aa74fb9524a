import type { FieldPath } from "../sql/find.ts";
import type { ModelTable, ScalarField } from "../sql/model.ts";
import { fieldOf, isRelation, modelNamed } from "../sql/statement.ts";

/** The direction of one ordering; a collection's orderings are written in it. */
export type Direction = "asc" | "desc";

export type Nulls = "first" | "last";

/** One column of a list's order, as a keyset compares it. */
export interface KeyTerm {
  /** The column's field from the listed model: to-one relations, then the scalar (["plan", "unitPrice"]). */
  path: FieldPath;
  field: ScalarField;
  direction: Direction;
  /** Where the order puts nulls when it names it; otherwise PostgreSQL's default: last ascending, first descending. */
  nulls?: Nulls;
  /** The relations on the path that a row may lack (["plan"]): without one, the row's value is null. */
  optionalRelations: FieldPath[];
}

export const isNullable = (term: KeyTerm) => term.field.nullable === true || term.optionalRelations.length > 0;

/** Whether the term's nulls come after all its values, in its direction. */
export const nullsAfter = (term: KeyTerm) => (term.nulls ?? (term.direction === "asc" ? "last" : "first")) === "last";

const isOrderObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The terms of one Prisma orderBy entry over `model`, reached from the listed model by `at`. */
function termsOf(model: ModelTable, entry: unknown, at: FieldPath, optional: FieldPath[]): KeyTerm[] {
  if (!isOrderObject(entry)) throw new Error(`Not an order: ${JSON.stringify(entry)}`);
  return Object.entries(entry).flatMap(([name, order]): KeyTerm[] => {
    if (order === undefined) return [];
    const field = fieldOf(model, name);
    const path = [...at, name];
    if (isRelation(field)) {
      if (field.list) throw new Error(`${path.join(".")}: a list relation has no key`);
      return termsOf(modelNamed(field.model), order, path, field.required ? optional : [...optional, path]);
    }
    const sort = isOrderObject(order) ? order.sort : order;
    const nulls = isOrderObject(order) ? order.nulls : undefined;
    if ((sort !== "asc" && sort !== "desc") || (nulls !== undefined && nulls !== "first" && nulls !== "last")) {
      throw new Error(`Not an order of ${path.join(".")}: ${JSON.stringify(order)}`);
    }
    return [{ path, field, direction: sort, ...(nulls ? { nulls } : {}), optionalRelations: optional }];
  });
}

const isId = (term: KeyTerm) => term.path.length === 1 && term.path[0] === "id";

/** The columns Prisma's `orderBy` (an entry or a list of them) orders `modelName` by, in order; a tie (`{}`) adds none. */
export const orderTermsOf = (modelName: string, orderBy: unknown): KeyTerm[] =>
  (Array.isArray(orderBy) ? orderBy : [orderBy]).flatMap((entry) => termsOf(modelNamed(modelName), entry, [], []));

/**
 * A key of `modelName` from the columns of its order: each once (a column ordered by again orders nothing more), up to
 * the id, which ends every key (in the direction of the column before it, so that an index on the columns and the id
 * serves both directions).
 */
export function endingWithId(modelName: string, order: readonly KeyTerm[]): KeyTerm[] {
  const named = (term: KeyTerm) => term.path.join(".");
  const terms = order.filter((term, i) => order.findIndex((earlier) => named(earlier) === named(term)) === i);
  const id = terms.findIndex(isId);
  if (id >= 0) return terms.slice(0, id + 1);
  const field = fieldOf(modelNamed(modelName), "id");
  if (isRelation(field)) throw new Error(`${modelName}.id is a relation`);
  return [...terms, { path: ["id"], field, direction: terms.at(-1)?.direction ?? "asc", optionalRelations: [] }];
}

/** The key of a list of `modelName` in Prisma's `orderBy`, as a collection contract gives it: its columns, then the id. */
export const keyTermsOf = (modelName: string, orderBy: unknown): KeyTerm[] => endingWithId(modelName, orderTermsOf(modelName, orderBy));

const OPPOSITE: { [D in Direction]: Direction } = { asc: "desc", desc: "asc" };

/** The same key read from the other end: each direction, and a named null placement, turned around. */
export const reversed = (terms: readonly KeyTerm[]): KeyTerm[] =>
  terms.map((term) => ({ ...term, direction: OPPOSITE[term.direction], ...(term.nulls ? { nulls: term.nulls === "first" ? "last" : "first" } : {}) }));

/** Prisma's orderBy of a key: a named null placement is kept (Prisma takes one only on a nullable column). */
export const orderByOf = (terms: readonly KeyTerm[]): object[] =>
  terms.map((term) => nested(term.path, term.nulls ? { sort: term.direction, nulls: term.nulls } : term.direction));

/** `{ plan: { unitPrice: leaf } }` for the path ["plan", "unitPrice"]. */
export function nested(path: FieldPath, leaf: unknown): Record<string, unknown> {
  const [name, ...rest] = path;
  return { [name]: rest.length ? nested(rest, leaf) : leaf };
}

/** The key written down, to tell one order from another: "username:asc:last,created:asc,id:asc". */
export const keySignature = (terms: readonly KeyTerm[]) =>
  terms.map((term) => [term.path.join("."), term.direction, ...(term.nulls ? [term.nulls] : [])].join(":")).join(",");
