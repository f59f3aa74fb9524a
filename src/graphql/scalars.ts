import { GraphQLError, Kind } from "graphql";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../platform/json-depth.ts";
import { parseTimestamp } from "../platform/timestamps.ts";
import { builder } from "./builder.ts";

const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));

/**
 * ISO-8601 in UTC with `Z`; fractional seconds only when non-zero, as Waldur (DRF) renders them. Written from the
 * date's fields (a REST page formats two per record; toISOString and trimming it took twice as long), except for
 * years of other than four digits and invalid dates, which toISOString writes (or refuses).
 */
export function formatDateTime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) {
    const iso = date.toISOString();
    return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : `${iso.slice(0, -1)}000Z`;
  }
  const ms = date.getUTCMilliseconds();
  const fraction = ms === 0 ? "" : ms < 10 ? `.00${ms}000` : ms < 100 ? `.0${ms}000` : `.${ms}000`;
  const ymd = `${year}-${TWO_DIGITS[date.getUTCMonth() + 1]}-${TWO_DIGITS[date.getUTCDate()]}`;
  return `${ymd}T${TWO_DIGITS[date.getUTCHours()]}:${TWO_DIGITS[date.getUTCMinutes()]}:${TWO_DIGITS[date.getUTCSeconds()]}${fraction}Z`;
}

function parseDateTime(value: unknown): Date {
  const date = typeof value === "string" && value.trim() !== "" ? parseTimestamp(value) : null;
  if (!date) {
    throw new GraphQLError("Datetime has wrong format. Use ISO 8601.", { extensions: { code: "VALIDATION" } });
  }
  return date;
}

builder.scalarType("DateTime", {
  description: "ISO-8601 date-time in UTC",
  serialize: (value) => formatDateTime(value instanceof Date ? value : new Date(value as string)),
  parseValue: parseDateTime,
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : undefined),
});

function parseJson(value: unknown): unknown {
  if (nestsDeeperThan(value)) {
    throw new GraphQLError(`JSON nests deeper than ${MAX_JSON_DEPTH} levels.`, { extensions: { code: "VALIDATION" } });
  }
  return value;
}

builder.scalarType("JSON", {
  description: "Any JSON value",
  serialize: (value) => value,
  parseValue: parseJson,
});
