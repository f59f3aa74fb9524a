import {
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLScalarType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
} from "graphql";

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

/** A GraphQL input type as JSON Schema, ignoring its outermost nullability. */
export function inputSchema(type: GraphQLInputType): JsonSchema {
  const inner = getNullableType(type);
  if (isListType(inner)) {
    const items = inputSchema(inner.ofType);
    return { type: "array", items: isNonNullType(inner.ofType) ? items : orNull(items) };
  }
  if (isInputObjectType(inner)) return { type: "object" };
  return leafSchema(inner);
}

/** The input type a variables path (`["filter", "state"]`) lands on, through input objects and lists. */
export function inputTypeAt(schema: GraphQLSchema, operation: OperationDefinitionNode, path: Array<string | number>) {
  const [name, ...rest] = path;
  const definition = operation.variableDefinitions?.find((d) => d.variable.name.value === name);
  let type: GraphQLInputType | undefined = definition ? (typeFromAST(schema, definition.type as never) as GraphQLInputType) : undefined;
  for (const segment of rest) {
    if (!type) return undefined;
    const inner: GraphQLInputType = getNullableType(type);
    if (isListType(inner) && typeof segment === "number") type = inner.ofType;
    else if (isInputObjectType(inner) && typeof segment === "string") type = inner.getFields()[segment]?.type;
    else return undefined;
  }
  return type;
}

/** Every enum an operation's variables can hold, through input objects and lists. */
export function enumsOfVariables(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLEnumType[] {
  const found = new Set<GraphQLEnumType>();
  const seen = new Set<unknown>();
  const visit = (type: GraphQLInputType | undefined) => {
    const inner = type && getNullableType(type);
    if (!inner || seen.has(inner)) return;
    seen.add(inner);
    if (isListType(inner)) visit(inner.ofType);
    else if (isEnumType(inner)) found.add(inner);
    else if (isInputObjectType(inner)) for (const field of Object.values(inner.getFields())) visit(field.type);
  };
  for (const definition of operation.variableDefinitions ?? []) visit(typeFromAST(schema, definition.type as never) as GraphQLInputType);
  return [...found];
}
