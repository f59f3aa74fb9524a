import { isNullable, type KeyTerm, nullsAfter } from "./key-terms.ts";

export type Comparison = "gt" | "gte" | "lt" | "lte";

/**
 * How a language writes the conditions a keyset needs (Prisma's where-language, or SQL). `undefined` stands for a
 * condition no row meets; `all([])` for one every row meets.
 */
export interface Conditions<C> {
  /** The term's value compared with `value` (never null). */
  compare(term: KeyTerm, comparison: Comparison, value: unknown): C | undefined;
  equals(term: KeyTerm, value: unknown): C;
  isNull(term: KeyTerm): C;
  isNotNull(term: KeyTerm): C;
  all(parts: C[]): C;
  any(parts: C[]): C;
}

const allOf = <C>(c: Conditions<C>, parts: Array<C | undefined>): C | undefined =>
  parts.some((part) => part === undefined) ? undefined : c.all(parts.filter((part) => part !== undefined));

function anyOf<C>(c: Conditions<C>, parts: Array<C | undefined>): C | undefined {
  const some = parts.filter((part) => part !== undefined);
  return some.length ? c.any(some) : undefined;
}

const strictlyPast = (term: KeyTerm): Comparison => (term.direction === "asc" ? "gt" : "lt");
const atOrPast = (term: KeyTerm): Comparison => (term.direction === "asc" ? "gte" : "lte");

/**
 * The rows after the row whose key is `values`, in the order of `terms` (each in its direction, its nulls where the
 * order puts them), as conditions to read one after another: every row the first matches comes before every row the
 * second matches. `inclusive` adds the row at `values` itself.
 *
 * Each condition starts with a bound on the first column alone (`username >= $1`), so that an index on the order's
 * columns is entered at the cursor rather than scanned from its start. Where the first column's nulls come after its
 * values, the nulls are a second condition of their own (`username IS NULL`), for the same reason.
 */
export function rowsAfter<C>(c: Conditions<C>, terms: readonly KeyTerm[], values: readonly unknown[], inclusive = false): C[] {
  const beyond = (i: number): C | undefined => {
    const term = terms[i];
    if (values[i] === null) return nullsAfter(term) ? undefined : c.isNotNull(term);
    const past = c.compare(term, strictlyPast(term), values[i]);
    return isNullable(term) && nullsAfter(term) ? anyOf(c, [past, c.isNull(term)]) : past;
  };
  const tie = (i: number) => (values[i] === null ? c.isNull(terms[i]) : c.equals(terms[i], values[i]));
  const after = (i: number): C | undefined => (i === terms.length ? (inclusive ? c.all([]) : undefined) : anyOf(c, [beyond(i), allOf(c, [tie(i), after(i + 1)])]));

  const [first, value] = [terms[0], values[0]];
  const segments =
    value === null
      ? // The rest of the nulls, then (nulls first) every value.
        [allOf(c, [c.isNull(first), after(1)]), nullsAfter(first) ? undefined : c.isNotNull(first)]
      : // The values from the cursor's on, then (nulls last) the nulls.
        [
          allOf(c, [c.compare(first, atOrPast(first), value), anyOf(c, [c.compare(first, strictlyPast(first), value), allOf(c, [tie(0), after(1)])])]),
          isNullable(first) && nullsAfter(first) ? c.isNull(first) : undefined,
        ];
  return segments.filter((segment) => segment !== undefined);
}
