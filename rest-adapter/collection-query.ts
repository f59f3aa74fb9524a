import {
  type CollectionContract,
  type FilterReading,
  type QueryParameters,
  orderValue,
  type UuidSpelling,
} from "../src/collections/contract.ts";
import { collectionPaths } from "../src/collections/rest-paths.ts";
import { fieldError } from "../src/platform/errors.ts";
import { parseUuid } from "../src/platform/ids.ts";
import { booleanParam, choices, dateTimeParam, queryValue, queryValues, uuidListParam, uuidParam } from "./input.ts";

/**
 * Reads a collection's filters and `o=` from a REST query string, as its contract declares them, into the variables
 * of its GraphQL list field. Errors name the REST parameter and use Waldur's messages.
 */

function hyperlinkedUuid(name: string, value: string, paths: readonly string[]): string {
  const bare = parseUuid(value);
  if (bare) return bare;
  let path = "";
  try {
    path = new URL(value, "http://x").pathname;
  } catch {
    // Not a URL: reported below.
  }
  const match = /\/api\/([a-z-]+)\/([0-9a-fA-F-]{32,36})\/?$/.exec(path);
  const uuid = match && paths.includes(match[1]) ? parseUuid(match[2]) : null;
  if (!uuid) throw fieldError(name, "Select a valid choice. That choice is not one of the available choices.");
  return uuid;
}

function uuidsOf(query: URLSearchParams, name: string, spelling: UuidSpelling): string[] | undefined {
  if (spelling === "uuid") {
    const value = uuidParam(query, name);
    return value === undefined ? undefined : [value];
  }
  if (spelling === "uuids") return uuidListParam(query, name);
  const value = queryValue(query, name);
  return value === undefined ? undefined : [hyperlinkedUuid(name, value, [spelling.url].flat().flatMap(collectionPaths))];
}

/** Several parameters of one uuid filter narrow together. */
function intersect(sets: string[][]): string[] {
  const [first, ...rest] = sets.map((set) => set.map((uuid) => parseUuid(uuid) ?? uuid));
  return first.filter((uuid) => rest.every((set) => set.includes(uuid)));
}

const namesOf = (rest: string | readonly string[]) => (typeof rest === "string" ? [rest] : rest);

function number(name: string, value: string, integer: boolean): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed) || (integer && !Number.isInteger(parsed))) {
    throw fieldError(name, integer ? "Enter a whole number." : "Enter a number.");
  }
  return parsed;
}

function readFilter(query: URLSearchParams, filter: FilterReading): unknown {
  switch (filter.kind) {
    case "uuids": {
      const given = Object.entries(filter.rest).flatMap(([name, spelling]) => {
        const uuids = uuidsOf(query, name, spelling);
        return uuids ? [uuids] : [];
      });
      return given.length ? intersect(given) : undefined;
    }
    case "choice":
      return choices(query, filter.rest, (label) => (Object.hasOwn(filter.labels, label) ? filter.labels[label] : undefined));
    case "after":
    case "before": {
      const dates = namesOf(filter.rest).flatMap((name) => dateTimeParam(query, name) ?? []);
      if (!dates.length) return undefined;
      return dates.sort().at(filter.kind === "after" ? -1 : 0);
    }
    case "date":
      return dateTimeParam(query, filter.rest);
    case "boolean":
      return booleanParam(query, filter.rest);
    case "text":
      return queryValue(query, filter.rest);
    case "texts": {
      const values = queryValues(query, filter.rest);
      return values.length ? values : undefined;
    }
    case "int":
    case "number": {
      const value = queryValue(query, filter.rest);
      return value === undefined ? undefined : number(filter.rest, value, filter.kind === "int");
    }
  }
}

/** The GraphQL filter variable: one entry per filter the query string gives. */
export function readFilters(contract: QueryParameters, query: URLSearchParams): Record<string, unknown> | undefined {
  const values = Object.entries(contract.filters).flatMap(([arg, filter]) => {
    const value = readFilter(query, filter);
    return value === undefined ? [] : [[arg, value] as const];
  });
  return values.length ? Object.fromEntries(values) : undefined;
}

/** `o=-created,username` as order enum values; an unknown key is Waldur's 400. */
export function readOrdering(contract: CollectionContract, query: URLSearchParams): string[] | undefined {
  const value = queryValues(query, "o").join(",");
  if (!value) return undefined;
  return value.split(",").map((raw) => {
    const key = raw.trim();
    const field = key.replace(/^-/, "");
    if (!Object.hasOwn(contract.orderings, field)) throw fieldError("o", `Select a valid choice. ${key} is not one of the available choices.`);
    return orderValue(field, key.startsWith("-") ? "desc" : "asc");
  });
}

/** Every REST parameter a contract reads, for the OpenAPI document and the tests. */
export interface RestParameter {
  name: string;
  filter: FilterReading;
  spelling?: UuidSpelling;
}

export function restParameters(contract: QueryParameters): RestParameter[] {
  return Object.values(contract.filters).flatMap((filter): RestParameter[] =>
    filter.kind === "uuids"
      ? Object.entries(filter.rest).map(([name, spelling]) => ({ name, filter, spelling }))
      : namesOf(filter.rest).map((name) => ({ name, filter })),
  );
}
