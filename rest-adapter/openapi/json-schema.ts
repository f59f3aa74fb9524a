import { type GraphQLEnumType, type GraphQLScalarType, isEnumType } from "graphql";

export type JsonSchema = { [keyword: string]: unknown };

const SCALARS: Record<string, JsonSchema> = {
  String: { type: "string" },
  ID: { type: "string" },
  Int: { type: "integer" },
  Float: { type: "number" },
  Boolean: { type: "boolean" },
  DateTime: { type: "string", format: "date-time" },
  JSON: {},
};

const isAnything = (schema: JsonSchema) => Object.keys(schema).length === 0;

/** The same schema, also allowing null. */
export function orNull(schema: JsonSchema): JsonSchema {
  if (isAnything(schema)) return schema;
  if (typeof schema.type === "string") {
    const withNull: JsonSchema = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum)) withNull.enum = [...schema.enum, null];
    return withNull;
  }
  return { anyOf: [schema, { type: "null" }] };
}

export function leafSchema(type: GraphQLScalarType | GraphQLEnumType): JsonSchema {
  if (isEnumType(type)) return { type: "string", enum: type.getValues().map((value) => value.name) };
  return SCALARS[type.name] ?? {};
}
