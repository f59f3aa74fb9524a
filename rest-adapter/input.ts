import { fieldError, invalid } from "../src/platform/errors.ts";
import { parseUuid } from "../src/platform/ids.ts";
import { parseTimestamp } from "../src/platform/timestamps.ts";

/** Readers for request bodies and query strings that fail with Waldur's field errors (400). */

export function optionalString(body: Record<string, unknown>, field: string): string | null | undefined {
  const value = body[field];
  if (value === undefined || value === null) return value as null | undefined;
  if (typeof value !== "string") throw fieldError(field, "Not a valid string.");
  return value;
}

export function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  const parsed = BODY_BOOLEANS.get(value);
  if (parsed === undefined) throw fieldError(field, "Must be a valid boolean.");
  return parsed;
}

/** DRF BooleanField's TRUE_VALUES and FALSE_VALUES. */
const BODY_BOOLEANS = new Map<unknown, boolean>([
  ...["t", "T", "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "1", 1, true].map((v) => [v, true] as const),
  ...["f", "F", "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "0", 0, false].map((v) => [v, false] as const),
]);

export function optionalDateTime(body: Record<string, unknown>, field: string): string | null | undefined {
  const value = optionalString(body, field);
  if (typeof value === "string" && !parseTimestamp(value)) {
    throw fieldError(field, "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].");
  }
  return value;
}

/** A related object given as its URL (`…/api/<collection>/<uuid>/`, through any of `collections`) or as a bare uuid. */
export function hyperlink(value: unknown, field: string, collections: string | readonly string[]): string {
  if (value === undefined) throw fieldError(field, "This field is required.");
  // DRF's related fields treat "" as null.
  if (value === null || value === "") throw fieldError(field, "This field may not be null.");
  if (typeof value !== "string") throw fieldError(field, `Incorrect type. Expected URL string, received ${pythonTypeName(value)}.`);
  const bare = parseUuid(value);
  if (bare) return bare;
  const match = /\/api\/([a-z-]+)\/([0-9a-fA-F-]{32,36})\/?$/.exec(safePath(value));
  const uuid = match && [collections].flat().includes(match[1]) ? parseUuid(match[2]) : null;
  if (!uuid) throw fieldError(field, "Invalid hyperlink - Object does not exist.");
  return uuid;
}

/** The Python type name DRF puts into its messages for a JSON value. */
export function pythonTypeName(value: unknown): string {
  if (value === null) return "NoneType";
  if (Array.isArray(value)) return "list";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return PYTHON_TYPES[typeof value] ?? typeof value;
}
const PYTHON_TYPES: Record<string, string> = { string: "str", boolean: "bool", object: "dict" };

function safePath(value: string) {
  try {
    return new URL(value, "http://x").pathname;
  } catch {
    return "";
  }
}

export const queryValues = (query: URLSearchParams, name: string) => query.getAll(name).filter((v) => v !== "");
export const queryValue = (query: URLSearchParams, name: string) => queryValues(query, name).at(-1);

/** Repeatable display labels (`?state=Requested&state=OK`) mapped to enum values. */
export function choices<T>(query: URLSearchParams, name: string, byLabel: (label: string) => T | undefined): T[] | undefined {
  const labels = queryValues(query, name);
  if (!labels.length) return undefined;
  return labels.map((label) => {
    const value = byLabel(label);
    if (value === undefined) throw fieldError(name, `Select a valid choice. ${label} is not one of the available choices.`);
    return value;
  });
}

const BOOLEANS: Record<string, boolean> = { true: true, True: true, "1": true, false: false, False: false, "0": false };

export function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
  const value = queryValue(query, name);
  if (value === undefined) return undefined;
  if (!Object.hasOwn(BOOLEANS, value)) throw fieldError(name, "Enter a valid boolean.");
  return BOOLEANS[value];
}

export function dateTimeParam(query: URLSearchParams, name: string): string | undefined {
  const value = queryValue(query, name);
  if (value === undefined) return undefined;
  const date = parseTimestamp(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!date) throw fieldError(name, "Enter a valid date/time.");
  return date.toISOString();
}


export function uuidParam(query: URLSearchParams, name: string): string | undefined {
  const value = queryValue(query, name);
  if (value === undefined) return undefined;
  if (!parseUuid(value)) throw fieldError(name, "Enter a valid UUID.");
  return value;
}

export function uuidListParam(query: URLSearchParams, name: string): string[] | undefined {
  const values = queryValues(query, name).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
  if (!values.length) return undefined;
  const bad = values.filter((v) => !parseUuid(v));
  if (bad.length) throw invalid({ [name]: bad.map((v) => `“${v}” is not a valid UUID.`) });
  return values;
}

/** Keeps only the keys a defined input object cares about, dropping undefined ones. */
export const compact = <T extends Record<string, unknown>>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
