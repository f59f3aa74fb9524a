import { GraphQLError, Kind } from "graphql";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../platform/json-depth.ts";
import { parseTimestamp } from "../platform/timestamps.ts";
import { builder } from "./builder.ts";

/** ISO-8601 in UTC with `Z`; fractional seconds only when non-zero, as Waldur (DRF) renders them. */
export const formatDateTime = (date: Date) => {
  const iso = date.toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : `${iso.slice(0, -1)}000Z`;
};

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
