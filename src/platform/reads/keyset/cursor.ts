import { createHash } from "node:crypto";
import { fieldError } from "../../errors.ts";
import { isNullable, type KeyTerm, keySignature } from "./key-terms.ts";

/**
 * A cursor is base64url of `{"v":1,"l":<list>,"k":[<key values>]}`: the values of the row's key (each column of the
 * order, then its id; instants as ISO 8601 to the microsecond, decimals and big integers as their digits) and a digest
 * of the list it was read from (the model, the key's columns and directions, and the list's other arguments: its
 * filter), so that a page resumes after that row even once the row is gone, and a cursor is refused by another list.
 */
const VERSION = 1;

/** What tells one list from another for its cursors: the model, the order, and its other arguments (`scope`). */
export const listDigest = (modelName: string, terms: readonly KeyTerm[], scope: string) =>
  createHash("sha256").update(`${modelName}\n${keySignature(terms)}\n${scope}`).digest("base64url").slice(0, 16);

export const encodeCursor = (list: string, values: readonly unknown[]) => Buffer.from(JSON.stringify({ v: VERSION, l: list, k: values })).toString("base64url");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const INT4 = 2 ** 31;

/** Whether `value` is one the term's column could hold, as a cursor writes it (so that no comparison fails in SQL). */
function fits(term: KeyTerm, value: unknown): boolean {
  if (value === null) return isNullable(term);
  const { field } = term;
  if (field.kind === "enum") return typeof value === "string" && (field.values ?? []).includes(value);
  switch (field.type) {
    case "String":
      return typeof value === "string" && (field.native !== "Uuid" || UUID.test(value));
    case "Int":
      return typeof value === "number" && Number.isInteger(value) && Math.abs(value) < INT4;
    case "Float":
      return typeof value === "number" && Number.isFinite(value);
    case "BigInt":
      return typeof value === "string" && /^-?\d{1,19}$/.test(value);
    case "Decimal":
      return typeof value === "string" && /^-?\d{1,100}(\.\d{1,100})?$/.test(value);
    case "Boolean":
      return typeof value === "boolean";
    case "DateTime":
      return typeof value === "string" && INSTANT.test(value) && !Number.isNaN(Date.parse(value));
    default:
      return false;
  }
}

interface Payload {
  v: unknown;
  l: unknown;
  k: unknown;
}

function payloadOf(cursor: string): Payload | undefined {
  if (!/^[A-Za-z0-9_-]{1,4096}$/.test(cursor)) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    return typeof payload === "object" && payload !== null && !Array.isArray(payload) ? { v: undefined, l: undefined, k: undefined, ...payload } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The key values of a cursor given as `argument` (after, before) to the list `list` ordered by `terms`: a field error
 * when it is no cursor of ours, or one of another list (another order or filter).
 */
export function cursorValues(argument: string, cursor: string, list: string, terms: readonly KeyTerm[]): unknown[] {
  const payload = payloadOf(cursor);
  if (!payload || payload.v !== VERSION || typeof payload.l !== "string" || !Array.isArray(payload.k)) throw fieldError(argument, "Invalid cursor.");
  if (payload.l !== list) throw fieldError(argument, "This cursor belongs to another order or filter of the list.");
  const values: unknown[] = payload.k;
  if (values.length !== terms.length || !values.every((value, i) => fits(terms[i], value))) throw fieldError(argument, "Invalid cursor.");
  return values;
}
