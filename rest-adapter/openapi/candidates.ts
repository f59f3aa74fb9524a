import type { GraphQLEnumType, GraphQLEnumValue } from "graphql";
import type { JsonSchema } from "./json-schema.ts";

/** Values offered to a route's readers to learn what each field accepts. */

export const PROBE_UUID = "0123456789abcdef0123456789abcdef";

export type PrimitiveKind = "text" | "uuid" | "dateTime" | "boolean" | "integer" | "number";

interface Primitive {
  kind: PrimitiveKind;
  /** As a query string value. */
  query: string;
  /** As a JSON body value. */
  body: unknown;
  schema: JsonSchema;
}

export const PRIMITIVES: Primitive[] = [
  { kind: "text", query: "probe", body: "probe", schema: { type: "string" } },
  { kind: "uuid", query: PROBE_UUID, body: PROBE_UUID, schema: { type: "string", format: "uuid" } },
  { kind: "dateTime", query: "2024-01-31T12:00:00Z", body: "2024-01-31T12:00:00Z", schema: { type: "string", format: "date-time" } },
  { kind: "boolean", query: "true", body: true, schema: { type: "boolean" } },
  { kind: "integer", query: "1", body: 1, schema: { type: "integer" } },
  { kind: "number", query: "1.5", body: 1.5, schema: { type: "number" } },
];

const primitive = (kind: PrimitiveKind) => PRIMITIVES.find((p) => p.kind === kind)!.schema;

/** A hyperlink to an object of one of the served collections (`/api/<collection>/<uuid>/`). */
export const hyperlinkTo = (collection: string) => `http://gateway.invalid/api/${collection}/${PROBE_UUID}/`;

export function hyperlinkSchema(collections: string[]): JsonSchema {
  const where = collections.map((c) => `/api/${c}/`).join(", ");
  return { type: "string", format: "uri", description: `URL of an object of ${where} (its bare uuid is accepted too)` };
}

const sentenceCase = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/** How an enum value may be written in REST: the quoted label of its description, an ordering key, or a casing of its name. */
function spellings(value: GraphQLEnumValue): string[] {
  const ordering = /^(.*)_(ASC|DESC)$/.exec(value.name);
  const words = value.name.toLowerCase();
  return [
    ...(value.description?.match(/"[^"]+"/g) ?? []).map((quoted) => quoted.slice(1, -1)),
    ...(ordering ? [`${ordering[2] === "DESC" ? "-" : ""}${ordering[1].toLowerCase()}`] : []),
    words,
    words.replaceAll("_", "-"),
    sentenceCase(words.replaceAll("_", " ")),
    value.name,
  ].filter((spelling, i, all) => all.indexOf(spelling) === i);
}

/** For each value of each enum, its possible spellings in order of preference. */
export const labelCandidates = (enums: GraphQLEnumType[]) => enums.flatMap((e) => e.getValues().map(spellings));

/** What a field accepted, as offered by the probe. */
export interface Acceptance {
  kinds: Set<PrimitiveKind>;
  collections: string[];
  labels: string[];
  object?: JsonSchema;
  list?: JsonSchema;
}

function stringSchema(accepted: Acceptance): JsonSchema | undefined {
  if (accepted.kinds.has("text")) return primitive("text");
  if (accepted.collections.length) return hyperlinkSchema(accepted.collections);
  if (accepted.kinds.has("uuid")) return primitive("uuid");
  if (accepted.kinds.has("dateTime")) return primitive("dateTime");
  if (accepted.labels.length) return { type: "string", enum: accepted.labels };
  return undefined;
}

/** A query parameter is one string: the most telling value it accepted names its type. */
export function queryParameterSchema(accepted: Acceptance): JsonSchema {
  if (accepted.kinds.has("text")) return primitive("text");
  if (accepted.collections.length) return hyperlinkSchema(accepted.collections);
  const kind = (["uuid", "dateTime", "boolean", "number", "integer"] as const).find((k) => accepted.kinds.has(k));
  if (kind) return primitive(kind);
  return accepted.labels.length ? { type: "string", enum: accepted.labels } : primitive("text");
}

/**
 * A body field may take several JSON types; `undefined` when it took everything offered (the caller may know better).
 * Objects and lists are offered only where `structured`.
 */
export function bodyFieldSchema(accepted: Acceptance, structured: boolean): JsonSchema | undefined {
  const { kinds } = accepted;
  const number = kinds.has("number") ? primitive("number") : kinds.has("integer") && !kinds.has("boolean") ? primitive("integer") : undefined;
  const string = stringSchema(accepted);
  const tookStructures = !structured || (accepted.object && accepted.list);
  if (kinds.has("text") && kinds.has("boolean") && number && tookStructures) return undefined;
  const parts = [string, kinds.has("boolean") ? primitive("boolean") : undefined, number, accepted.object, accepted.list].filter(
    (part): part is JsonSchema => part !== undefined,
  );
  if (!parts.length) return {};
  return parts.length === 1 ? parts[0] : { anyOf: parts };
}
