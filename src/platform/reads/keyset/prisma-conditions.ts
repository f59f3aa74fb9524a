import type { FieldPath } from "../sql/find.ts";
import type { Comparison, Conditions } from "./key-condition.ts";
import { isNullable, type KeyTerm, nested } from "./key-terms.ts";

/** A condition in Prisma's where-language, which sql-reads compiles (and Prisma's client answers alike). */
export type Where = Record<string, unknown>;

/** `condition` said of the field at `path`, through its relations: `{ plan: { unitPrice: condition } }`. */
const at: (path: FieldPath, condition: unknown) => Where = nested;

/** A cursor's value as the where-language takes it: a BigInt as one (its text otherwise); dates stay ISO text, to the microsecond. */
const whereValue = (term: KeyTerm, value: unknown) => (term.field.type === "BigInt" && typeof value === "string" ? BigInt(value) : value);

const HOLDS: { [C in Comparison]: (a: number, b: number) => boolean } = {
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
};

const isNotNull = (term: KeyTerm): Where => {
  if (term.field.nullable) return at(term.path, { not: null });
  return term.path.length > 1 ? at(term.path.slice(0, -1), { isNot: null }) : {};
};

/**
 * The values of a column Prisma cannot compare by `gt`/`lt` (an enum, in the order of its type; a boolean, false
 * first) that meet the comparison, as `in` or equality; undefined when none does.
 */
function comparedByValues(term: KeyTerm, comparison: Comparison, value: unknown): Where | undefined {
  const values: unknown[] = term.field.kind === "enum" ? (term.field.values ?? []) : [false, true];
  const position = values.indexOf(value);
  const chosen = values.filter((_, i) => HOLDS[comparison](i, position));
  if (!chosen.length) return undefined;
  if (chosen.length === values.length) return isNotNull(term);
  return at(term.path, chosen.length === 1 ? chosen[0] : { in: chosen });
}

/** The keyset's conditions in Prisma's where-language (a relation's missing row is a null value). */
export const prismaConditions: Conditions<Where> = {
  compare: (term, comparison, value) =>
    term.field.kind === "enum" || term.field.type === "Boolean" ? comparedByValues(term, comparison, value) : at(term.path, { [comparison]: whereValue(term, value) }),
  equals: (term, value) => at(term.path, whereValue(term, value)),
  isNull: (term) => {
    const parts = [...term.optionalRelations.map((relation) => at(relation, null)), ...(term.field.nullable ? [at(term.path, null)] : [])];
    return parts.length === 1 ? parts[0] : { OR: parts };
  },
  isNotNull: (term) => (isNullable(term) ? isNotNull(term) : {}),
  all: (parts) => (parts.length === 0 ? {} : parts.length === 1 ? parts[0] : { AND: parts }),
  any: (parts) => (parts.length === 1 ? parts[0] : { OR: parts }),
};
