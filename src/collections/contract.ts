import type { Collection } from "./rest-paths.ts";
import { fieldError, invalid } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import type { Direction } from "../platform/reads/keyset/key-terms.ts";

export type { Direction };

/**
 * A collection's contract: its filters and orderings, declared once. The GraphQL filter input and order enum, the
 * Prisma `where` and `orderBy`, the REST query reader, the OpenAPI parameters and the filter sweep test all derive
 * from it. Filter keys are GraphQL argument names; each filter lists the REST query parameters that feed it.
 */

/** How a REST parameter spells uuids: one, several (repeated or comma-separated), or a hyperlink into a collection (or any of several). */
export type UuidSpelling = "uuid" | "uuids" | { url: Collection | readonly Collection[] };

interface FilterKinds<E extends string = string> {
  uuids: string[];
  choice: E[];
  after: Date;
  before: Date;
  date: Date;
  boolean: boolean;
  text: string;
  texts: string[];
  int: number;
  number: number;
}
export type FilterKind = keyof FilterKinds;

/** The request argument of a contract's `where`: none for a contract whose filters need none. */
type RequestArgs<R> = [R] extends [never] ? [] : [request: R];

/**
 * What a filter value narrows to: a `W`, or, for a filter that needs the request first (the viewer's roles, the clock,
 * other tables), a function of the request `R` that the contract's `where` runs before the query.
 */
export type Narrowing<W, R = never> = W | NeedsRequest<W, R>;
type NeedsRequest<W, R> = (...request: RequestArgs<R>) => Promise<W>;

/** A `W` is a `where` object, never a function. */
const needsRequest = <W, R>(narrowing: Narrowing<W, R>): narrowing is NeedsRequest<W, R> => typeof narrowing === "function";

interface FilterBase<K extends FilterKind, V, W, R> {
  kind: K;
  description?: string;
  /** A method, so that a choice filter over one enum fits the contract's filters over any enum. */
  where(value: V): Narrowing<W, R>;
}

export interface UuidFilter<W, R = never> extends FilterBase<"uuids", string[], W, R> {
  /** Several parameters narrow together: their uuid sets intersect. */
  rest: Readonly<Record<string, UuidSpelling>>;
}

export interface ChoiceFilter<E extends string, W, R = never> extends FilterBase<"choice", E[], W, R> {
  rest: string;
  /** Waldur's label of each value, as REST spells it. */
  labels: Readonly<Record<string, E>>;
  /** The GraphQL enum of the values. */
  enumName: string;
}

/** `after`/`before` accept several parameters (`created`, `created_after`): the latest lower bound or earliest upper one wins. */
export interface ScalarFilter<K extends Exclude<FilterKind, "uuids" | "choice">, W, R = never> extends FilterBase<K, FilterKinds[K], W, R> {
  rest: K extends "after" | "before" ? string | readonly string[] : string;
}

export type Filter<W, R = never> =
  | UuidFilter<W, R>
  | ChoiceFilter<string, W, R>
  | { [K in Exclude<FilterKind, "uuids" | "choice">]: ScalarFilter<K, W, R> }[Exclude<FilterKind, "uuids" | "choice">];

/** What a REST reader needs of a filter: its parameters and form, not how it narrows. */
export type FilterReading = Filter<unknown> extends infer F ? (F extends unknown ? Omit<F, "where"> : never) : never;

/** Parameters read as filters are, by a route that is no list (what they narrow is the route's own business). */
export interface QueryParameters {
  filters: Readonly<Record<string, FilterReading>>;
}

export interface CollectionContract<W = unknown, O = unknown, R = never> {
  filters: Readonly<Record<string, Filter<W, R>>>;
  /** Waldur's `o=` keys, each ordering in either direction. */
  orderings: Readonly<Record<string, (direction: Direction) => O>>;
  /** The order without `o=` (Waldur keys, `-` for descending), then the tiebreak that makes pages stable. */
  defaultOrder: readonly string[];
  /** Fixed, or in the direction of the last order chosen (so that one index, read forwards or backwards, serves both). */
  tiebreak: readonly O[] | ((direction: Direction) => readonly O[]);
}

type ValueOf<F> = F extends ChoiceFilter<infer E, unknown> ? E[] : F extends FilterBase<FilterKind, infer V, unknown, never> ? V : never;

/** What GraphQL hands a resolver: uuids as IDs, the rest as their values, every key optional. */
export type FilterValues<C extends CollectionContract> = {
  [K in keyof C["filters"]]?: (C["filters"][K] extends UuidFilter<unknown> ? Array<string | number> : ValueOf<C["filters"][K]>) | null;
};

/** The order enum's values: `USERNAME_ASC`, `COMPONENT_USAGE__BILLING_PERIOD_DESC`. */
export const orderValue = (key: string, direction: Direction) => `${key.toUpperCase()}_${direction.toUpperCase()}`;

export type OrderValue<C extends CollectionContract> = `${Uppercase<Extract<keyof C["orderings"], string>>}_${"ASC" | "DESC"}`;

/**
 * Declares a contract whose filters narrow `W` (given the request `R`, if any needs it) and whose orderings are `O`,
 * so each entry is checked against them; the result also turns filter values into `W`s and order values into `O`s.
 */
export const defineContract =
  <W, O, R = never>() =>
  <const C extends CollectionContract<W, O, R>>(contract: C) => ({
    ...contract,
    where: (values: FilterValues<C> | null | undefined, ...request: RequestArgs<R>): Promise<W[]> =>
      contractWhere<W, R>(contract, values, ...request),
    orderBy: (chosen: ReadonlyArray<OrderValue<C>> | null | undefined): O[] => contractOrderBy<O>(contract, chosen),
  });

/** A choice filter's `labels` from a table of each value's label (`{ CREATION_REQUESTED: "Requested" }`, or `{ label }`). */
export const valuesByLabel = <E extends string>(labelOf: Readonly<Record<E, string | { label: string }>>): Record<string, E> =>
  // Object.entries widens the keys to string; they are E's by construction.
  Object.fromEntries(
    Object.entries<string | { label: string }>(labelOf).map(([value, label]) => [typeof label === "string" ? label : label.label, value]),
  ) as Record<string, E>;

/** A choice filter whose values are the enum its labels map to. */
export const choiceFilter = <E extends string, W, R = never>(filter: Omit<ChoiceFilter<E, W, R>, "kind">): ChoiceFilter<E, W, R> => ({
  kind: "choice",
  ...filter,
});

/** The empty `where`, which every row matches. */
type Everything = Record<never, never>;

/** A filter on a concept no row here has (calls, archived customers, shared keys): `true` matches `nothing`. */
export const absentFlag =
  <W>(nothing: W) =>
  (value: boolean): W | Everything =>
    value ? nothing : {};

/** A filter on what every row here has (shared, billable offerings): `false` matches `nothing`. */
export const universalFlag =
  <W>(nothing: W) =>
  (value: boolean): W | Everything =>
    value ? {} : nothing;

/** A field that is not stored, so empty on every row: a filter on it matches every row for `""` and `nothing` otherwise. */
export const emptyField =
  <W>(nothing: W) =>
  (value: string): W | Everything =>
    value === "" ? {} : nothing;

/** A filter on a Waldur concept not modelled here (calls, categories, tags, affiliations, …): any value matches `nothing`. */
export const unmodelled = <W>(concepts: string, nothing: W) => ({ description: `${concepts} are not modelled: matches nothing`, where: () => nothing });

/** `a,b` and repeated values alike, trimmed, without blanks. */
export const commaList = (values: string | readonly string[]) =>
  (typeof values === "string" ? [values] : values).flatMap((value) => value.split(",")).map((value) => value.trim()).filter(Boolean);

/** PostgreSQL's own null placement, which Waldur (Django) inherits: last ascending, first descending. */
export const postgresNulls = (direction: Direction) => ({ sort: direction, nulls: direction === "asc" ? ("last" as const) : ("first" as const) });

function uuidsOf(name: string, values: Array<string | number>): string[] {
  const bad = values.filter((value) => !parseUuid(String(value)));
  if (bad.length) throw invalid({ [name]: bad.map((value) => `“${value}” is not a valid UUID.`) });
  return values.map((value) => parseUuid(String(value)) ?? "");
}

function checkedValue(name: string, filter: Filter<unknown>, value: unknown): unknown {
  if (filter.kind === "uuids") return uuidsOf(name, value as Array<string | number>);
  if ((filter.kind === "int" || filter.kind === "number") && !Number.isFinite(value)) throw fieldError(name, "Enter a number.");
  return value;
}

/**
 * The `where` of every filter given a value; a null or absent filter narrows nothing. Every value is checked before
 * the filters that need the request run, together.
 */
export async function contractWhere<W, R = never>(
  contract: CollectionContract<W, unknown, R>,
  values: Readonly<Record<string, unknown>> | null | undefined,
  ...request: RequestArgs<R>
): Promise<W[]> {
  const narrowings: Array<Narrowing<W, R>> = [];
  for (const [name, filter] of Object.entries(contract.filters)) {
    const value = values?.[name];
    if (value === undefined || value === null) continue;
    narrowings.push((filter.where as (value: unknown) => Narrowing<W, R>)(checkedValue(name, filter, value)));
  }
  return Promise.all(narrowings.map((narrowing) => (needsRequest(narrowing) ? narrowing(...request) : narrowing)));
}

/** Each order enum value with its Waldur key and direction. */
export function orderValues(contract: CollectionContract): Map<string, { key: string; direction: Direction }> {
  const values = new Map<string, { key: string; direction: Direction }>();
  for (const key of Object.keys(contract.orderings)) {
    for (const direction of ["asc", "desc"] as const) values.set(orderValue(key, direction), { key, direction });
  }
  return values;
}

/** The Prisma `orderBy` of the chosen order values (Waldur's default without any), followed by the tiebreak. */
export function contractOrderBy<O>(contract: CollectionContract<unknown, O>, chosen: readonly string[] | null | undefined): O[] {
  const table = orderValues(contract);
  const defaults = contract.defaultOrder.map((key) =>
    key.startsWith("-") ? orderValue(key.slice(1), "desc") : orderValue(key, "asc"),
  );
  const values = chosen?.length ? chosen : defaults;
  const entries = values.map((value) => {
    const entry = table.get(value);
    if (!entry) throw fieldError("orderBy", `Unknown order ${value}.`);
    return entry;
  });
  const orders = entries.map((entry) => contract.orderings[entry.key](entry.direction));
  const { tiebreak } = contract;
  return [...orders, ...(typeof tiebreak === "function" ? tiebreak(entries.at(-1)?.direction ?? "asc") : tiebreak)];
}
