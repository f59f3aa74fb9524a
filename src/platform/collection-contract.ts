import type { Collection } from "./collections.ts";
import { fieldError, invalid } from "./errors.ts";
import { parseUuid } from "./ids.ts";

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

interface FilterBase<K extends FilterKind, V, W> {
  kind: K;
  description?: string;
  /** A method, so that a choice filter over one enum fits the contract's filters over any enum. */
  where(value: V): W;
}

export interface UuidFilter<W> extends FilterBase<"uuids", string[], W> {
  /** Several parameters narrow together: their uuid sets intersect. */
  rest: Readonly<Record<string, UuidSpelling>>;
}

export interface ChoiceFilter<E extends string, W> extends FilterBase<"choice", E[], W> {
  rest: string;
  /** Waldur's label of each value, as REST spells it. */
  labels: Readonly<Record<string, E>>;
  /** The GraphQL enum of the values. */
  enumName: string;
}

/** `after`/`before` accept several parameters (`created`, `created_after`): the latest lower bound or earliest upper one wins. */
export interface ScalarFilter<K extends Exclude<FilterKind, "uuids" | "choice">, W> extends FilterBase<K, FilterKinds[K], W> {
  rest: K extends "after" | "before" ? string | readonly string[] : string;
}

export type Filter<W> =
  | UuidFilter<W>
  | ChoiceFilter<string, W>
  | { [K in Exclude<FilterKind, "uuids" | "choice">]: ScalarFilter<K, W> }[Exclude<FilterKind, "uuids" | "choice">];

export type Direction = "asc" | "desc";

export interface CollectionContract<W = unknown, O = unknown> {
  filters: Readonly<Record<string, Filter<W>>>;
  /** Waldur's `o=` keys, each ordering in either direction. */
  orderings: Readonly<Record<string, (direction: Direction) => O>>;
  /** The order without `o=` (Waldur keys, `-` for descending), then the tiebreak that makes pages stable. */
  defaultOrder: readonly string[];
  tiebreak: readonly O[];
}

type ValueOf<F> = F extends ChoiceFilter<infer E, unknown> ? E[] : F extends FilterBase<FilterKind, infer V, unknown> ? V : never;

/** What GraphQL hands a resolver: uuids as IDs, the rest as their values, every key optional. */
export type FilterValues<C extends CollectionContract> = {
  [K in keyof C["filters"]]?: (C["filters"][K] extends UuidFilter<unknown> ? Array<string | number> : ValueOf<C["filters"][K]>) | null;
};

/** The order enum's values: `USERNAME_ASC`, `COMPONENT_USAGE__BILLING_PERIOD_DESC`. */
export const orderValue = (key: string, direction: Direction) => `${key.toUpperCase()}_${direction.toUpperCase()}`;

export type OrderValue<C extends CollectionContract> = `${Uppercase<Extract<keyof C["orderings"], string>>}_${"ASC" | "DESC"}`;

/**
 * Declares a contract whose filters narrow `W` and whose orderings are `O`, so each entry is checked against them;
 * the result also turns filter values into `W`s and order values into `O`s.
 */
export const defineContract =
  <W, O>() =>
  <const C extends CollectionContract<W, O>>(contract: C) => ({
    ...contract,
    where: (values: FilterValues<C> | null | undefined): W[] => contractWhere<W>(contract, values),
    orderBy: (chosen: ReadonlyArray<OrderValue<C>> | null | undefined): O[] => contractOrderBy<O>(contract, chosen),
  });

/** A choice filter whose values are the enum its labels map to. */
export const choiceFilter = <E extends string, W>(filter: Omit<ChoiceFilter<E, W>, "kind">): ChoiceFilter<E, W> => ({
  kind: "choice",
  ...filter,
});

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

/** The `where` of every filter given a value; a null or absent filter narrows nothing. */
export function contractWhere<W>(contract: CollectionContract<W>, values: Readonly<Record<string, unknown>> | null | undefined): W[] {
  if (!values) return [];
  const where: W[] = [];
  for (const [name, filter] of Object.entries(contract.filters)) {
    const value = values[name];
    if (value === undefined || value === null) continue;
    where.push((filter.where as (value: unknown) => W)(checkedValue(name, filter, value)));
  }
  return where;
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
  const orders = values.map((value) => {
    const entry = table.get(value);
    if (!entry) throw fieldError("orderBy", `Unknown order ${value}.`);
    return contract.orderings[entry.key](entry.direction);
  });
  return [...orders, ...contract.tiebreak];
}
