import { encodeGlobalID } from "@pothos/plugin-relay";
import {
  getNamedType,
  getOperationAST,
  type GraphQLInputType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  print,
  typeFromAST,
} from "graphql";
import type { CompiledRoute } from "../../rest-adapter/execute.ts";
import { openApiPath } from "../../rest-adapter/openapi/document.ts";
import type { World } from "./world.ts";
import { COLLECTION_TYPENAMES, collectionOf } from "./fuzz-targets.ts";
import { inPublicShape } from "./public-shape.ts";
import {
  hyperlinkLike, type IdSource, jsonValue, number, pathSegment, queryString, Random, randomObject, RawJson, rawGarbage, serialize, text, uuidLike,
} from "./fuzz-values.ts";

/** One generated request: REST (any route, any method) or GraphQL (a document with generated variables). */
export interface FuzzCase {
  kind: "rest" | "graphql";
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A mutation (GraphQL) or a method that may write (REST). */
  writes: boolean;
}

type Schema = { [keyword: string]: any };
export type OpenApiDocument = { paths: Record<string, Record<string, Schema>>; components: { parameters?: Record<string, Schema>; schemas?: Record<string, Schema> } };

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);
const MAX_QUERY_LENGTH = 1_200;
const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
const CONTENT_TYPES = ["application/json", "application/json", "application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1"];

/** Who calls: mostly staff (who passes every permission check and so reaches the deepest code), also others and garbage. */
function authorization(random: Random, world: World): string | undefined {
  return random.weighted<string | undefined>([
    [6, () => `Token ${world.tokens.staff}`],
    [2, () => `Token ${world.tokens.providerOwner}`],
    [1, () => `Token ${world.tokens.projectAdmin}`],
    [1, () => `Token ${world.tokens.projectMember}`],
    [1, () => undefined],
    [1, () => random.pick(["Token", "Token  ", "Token a b", "Bearer x", `Token ${"f".repeat(40)}`, "Token ÿÿÿ", `token ${world.tokens.staff}`, "Basic Og=="])],
  ]);
}

/** Accept values REST ignores; GraphQL answers others than JSON with 406 or an event stream, both fine but not checked here. */
const REST_ACCEPTS = ["text/html", "application/xml", "text/event-stream", ""];
const GRAPHQL_ACCEPTS = ["application/graphql-response+json", "application/json", "*/*"];

/** Headers the gateway reads besides the token: the client address (recorded in audit events), request ids, Accept. */
function extraHeaders(random: Random, accepts: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const garbage = () => random.pick(["", " , ", "999.999.1.1", "::1", "1.2.3.4, 5.6.7.8", "<script>", "ÿþ", "x".repeat(4000), "%00", "unknown", "-"]);
  if (random.chance(0.15)) headers["x-forwarded-for"] = garbage();
  if (random.chance(0.1)) headers["x-request-id"] = garbage();
  if (random.chance(0.1)) headers.accept = random.pick(accepts);
  return headers;
}

const resolve = (doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined => {
  const ref = schema?.$ref as string | undefined;
  if (!ref) return schema;
  const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
  return (doc.components as Record<string, Record<string, Schema>>)[section]?.[name];
};

/** A value for a JSON schema: usually of the documented type (real ids, enum members, dates), sometimes of any other. */
export function fromSchema(random: Random, doc: OpenApiDocument, ids: IdSource, raw: Schema | undefined, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (!schema || random.chance(0.2) || depth > 3) return jsonValue(random, ids, 2);
  const choice = schema.oneOf ?? schema.anyOf;
  if (choice && !schema.properties) return fromSchema(random, doc, ids, random.pick(choice), depth + 1);
  if (schema.enum) return random.chance(0.8) ? random.pick(schema.enum) : text(random, ids);
  const type = Array.isArray(schema.type) ? random.pick(schema.type) : schema.type;
  const linked = /\/api\/([^/]+)\//.exec(String(schema.description ?? ""))?.[1];
  const generators: Record<string, () => unknown> = {
    string: () =>
      schema.format === "uri" ? hyperlinkLike(random, ids, linked)
      : schema.format === "uuid" ? uuidLike(random, ids)
      : schema.format === "date-time" ? random.pick(["2030-01-01T00:00:00Z", "2031-06-30T12:00:00Z", text(random)])
      : text(random, ids),
    integer: () => (random.chance(0.7) ? random.int(6) : number(random)),
    number: () => number(random),
    boolean: () => random.pick([true, false, "true", "yes", 1, "maybe"]),
    array: () => Array.from({ length: random.int(4) }, () => fromSchema(random, doc, ids, schema.items, depth + 1)),
    object: () => objectFromSchema(random, doc, ids, schema, depth + 1),
    null: () => null,
  };
  return (generators[type] ?? (() => jsonValue(random, ids, 2)))();
}

function objectFromSchema(random: Random, doc: OpenApiDocument, ids: IdSource, schema: Schema, depth: number): Record<string, unknown> {
  const required = new Set<string>([...(schema.required ?? []), ...(schema.oneOf ? random.pick(schema.oneOf as Schema[]).required ?? [] : [])]);
  const entries = Object.entries((schema.properties ?? {}) as Record<string, Schema>)
    .filter(([name]) => random.chance(required.has(name) ? 0.9 : 0.5))
    .map(([name, property]) => [name, fromSchema(random, doc, ids, property, depth)]);
  if (random.chance(0.2)) entries.push([text(random).slice(0, 30), jsonValue(random, ids, 1)]);
  return Object.fromEntries(entries);
}

/** Every field the route documents set to the same hostile value, as the route sweep does with fixed ones. */
function sameValueEverywhere(random: Random, ids: IdSource, schema: Schema | undefined) {
  const value = jsonValue(random, ids, 2);
  return Object.fromEntries(Object.keys(schema?.properties ?? { name: 1 }).map((name) => [name, value]));
}

function restBody(random: Random, doc: OpenApiDocument, ids: IdSource, schema: Schema | undefined): string | undefined {
  return random.weighted<string | undefined>([
    [6, () => serialize(fromSchema(random, doc, ids, schema))],
    [2, () => serialize(sameValueEverywhere(random, ids, resolve(doc, schema)))],
    [2, () => serialize(randomObject(random, ids))],
    [2, () => rawGarbage(random)],
    [1, () => random.pick(["", " ", undefined])],
  ]);
}

const asQueryValue = (value: unknown) => (typeof value === "string" ? value : value instanceof RawJson ? value.text : serialize(value));

export function restCase(random: Random, route: CompiledRoute, doc: OpenApiDocument, ids: IdSource, world: World): FuzzCase {
  const operation = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
  const parameters = ((operation?.parameters ?? []) as Schema[]).map((p) => resolve(doc, p)!).filter((p) => p.in === "query");
  const collection = collectionOf(route.path);
  const path = route.path.replace(/:\w+/g, () => pathSegment(random, ids, collection));
  // Node refuses request heads over 16 KiB, and its clients response heads over 16 KiB: a list's Link header repeats
  // the query four times, re-encoded. Stay below both.
  const query = queryString(random, parameters.map((p) => p.name), (name) =>
    asQueryValue(fromSchema(random, doc, ids, parameters.find((p) => p.name === name)?.schema)).slice(0, 1_000),
  ).slice(0, MAX_QUERY_LENGTH);
  const method = random.chance(0.05) ? random.pick(OTHER_METHODS) : route.method;
  const bodySchema = operation?.requestBody?.content?.["application/json"]?.schema;
  const body = METHODS_WITH_BODY.has(method) || (method === "DELETE" && random.chance(0.2)) ? restBody(random, doc, ids, bodySchema) : undefined;
  const headers = extraHeaders(random, [...REST_ACCEPTS, ...GRAPHQL_ACCEPTS]);
  const token = authorization(random, world);
  if (token) headers.authorization = token;
  if (body !== undefined && random.chance(0.9)) headers["content-type"] = random.pick(CONTENT_TYPES);
  return { kind: "rest", method, path: `${path}${query ? `?${query}` : ""}`, headers, body, writes: !["GET", "HEAD", "OPTIONS"].includes(method) };
}

/**
 * A global id where a mutation takes one (`input: { id }`): mostly of a real object under its own type (so resolvers
 * run past the lookup), sometimes under another type, an unknown type or none, a bare uuid, or not base64 at all.
 */
function globalIdLike(random: Random, ids: IdSource): string {
  const collection = random.pick(Object.keys(COLLECTION_TYPENAMES));
  const uuid = uuidLike(random, ids, collection);
  return random.weighted<string>([
    [8, () => encodeGlobalID(COLLECTION_TYPENAMES[collection], uuid)],
    [1, () => encodeGlobalID(random.pick(Object.values(COLLECTION_TYPENAMES)), uuid)],
    [1, () => encodeGlobalID(text(random), uuid)],
    [1, () => encodeGlobalID(COLLECTION_TYPENAMES[collection], text(random, ids))],
    [1, () => Buffer.from(uuid).toString("base64")],
    [1, () => uuid],
    [1, () => text(random, ids)],
  ]);
}

/**
 * A value for a GraphQL input type: usually well typed (so resolvers run), sometimes of another type. `name` is the
 * variable's or input field's: an `id` is a global id, any other ID a uuid.
 */
function graphqlValue(random: Random, type: GraphQLInputType, ids: IdSource, depth = 0, name = ""): unknown {
  if (random.chance(0.1) || depth > 4) return jsonValue(random, ids, 1);
  if (isNonNullType(type)) return graphqlValue(random, type.ofType, ids, depth, name);
  if (random.chance(0.1)) return null;
  if (isListType(type)) return Array.from({ length: random.int(4) }, () => graphqlValue(random, type.ofType, ids, depth + 1, name));
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((field) => random.chance(isNonNullType(field.type) ? 0.9 : 0.5));
    return Object.fromEntries(fields.map((field) => [field.name, graphqlValue(random, field.type, ids, depth + 1, field.name)]));
  }
  if (isEnumType(type)) return random.chance(0.9) ? random.pick(type.getValues()).name : text(random);
  const scalars: Record<string, () => unknown> = {
    ID: () => (name === "id" && random.chance(0.9) ? globalIdLike(random, ids) : uuidLike(random, ids)),
    String: () => text(random, ids),
    Int: () => (random.chance(0.6) ? random.int(20) - 2 : random.pick([2 ** 31 - 1, -(2 ** 31), 300, 301, 1_000_000, -1])),
    Float: () => number(random),
    Boolean: () => random.chance(0.5),
    DateTime: () => random.pick(["2030-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", text(random)]),
    JSON: () => jsonValue(random, ids, 3),
  };
  return (scalars[getNamedType(type).name] ?? (() => text(random, ids)))();
}

export interface GraphqlDocument {
  text: string;
  mutation: boolean;
  variables: Array<{ name: string; type: GraphQLInputType }>;
}

/**
 * Every REST route's document (with its fragments) is a GraphQL operation to fuzz directly at /graphql, past the REST
 * readers, in the shape `schema` (the public one) takes: the same root fields and variables.
 */
export function graphqlDocuments(routes: CompiledRoute[], schema: GraphQLSchema): GraphqlDocument[] {
  return routes.map((route) => {
    const operation = getOperationAST(route.parsed)!;
    return {
      text: print(inPublicShape(route.parsed, schema)),
      mutation: operation.operation === "mutation",
      variables: (operation.variableDefinitions ?? []).map((def) => ({ name: def.variable.name.value, type: typeFromAST(schema, def.type as never) as GraphQLInputType })),
    };
  });
}

/** The document cut short or with one character replaced, or a request envelope of the wrong shape. */
function malformedRequest(random: Random, document: GraphqlDocument, variables: Record<string, unknown>): string {
  const at = random.int(document.text.length);
  return random.weighted<string>([
    [2, () => serialize({ query: document.text.slice(0, at), variables })],
    [2, () => serialize({ query: `${document.text.slice(0, at)}${random.pick(["{", "}", "$", "(", "\u0000", "...", "@skip", "#"])}${document.text.slice(at + 1)}`, variables })],
    [1, () => serialize({ query: document.text, variables: random.pick([[], "x", 1, null, [variables]]) })],
    [1, () => serialize({ query: document.text, variables, operationName: random.pick(["x", 1, null, [], ""]), extensions: random.pick([null, 1, {}, "x"]) })],
    [1, () => serialize(random.pick([[{ query: document.text }], { query: 1 }, { query: null }, {}, "query"]))],
    [1, () => rawGarbage(random)],
  ]);
}

export function graphqlCase(random: Random, document: GraphqlDocument, ids: IdSource, world: World): FuzzCase {
  const variables = Object.fromEntries(
    document.variables.filter(() => random.chance(0.95)).map(({ name, type }) => [name, graphqlValue(random, type, ids, 0, name)]),
  );
  const headers: Record<string, string> = { ...extraHeaders(random, GRAPHQL_ACCEPTS), "content-type": "application/json" };
  const token = authorization(random, world);
  if (token) headers.authorization = token;
  const body = random.chance(0.1) ? malformedRequest(random, document, variables) : serialize({ query: document.text, variables });
  return { kind: "graphql", method: "POST", path: "/graphql", headers, body, writes: document.mutation };
}
