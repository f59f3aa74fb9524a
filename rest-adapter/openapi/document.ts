import { type GraphQLSchema, Kind } from "graphql";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../src/platform/reads/paginate.ts";
import { ErrorCode } from "../../src/platform/errors.ts";
import type { CompiledRoute } from "../execute.ts";
import type { HttpMethod } from "../route.ts";
import { ERROR_STATUS } from "../waldur.ts";
import { COMPONENTS, errorResponse, SECURITY, SUCCESS_DESCRIPTIONS, UUID_SCHEMA } from "./components.ts";
import type { JsonSchema } from "./json-schema.ts";
import { contractParameters } from "./contract-parameters.ts";
import { operationOf, ResponseSchemas } from "./responses.ts";

/** Builds the OpenAPI 3.1 document of the REST adapter from its route table and the GraphQL schema. */

export const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

const pathSegments = (path: string) => path.split("/").filter(Boolean);

/** The first segment below `/api/`: `marketplace-offering-users`. */
const collectionOf = (path: string) => {
  const [first, second] = pathSegments(path);
  return first === "api" && second && !second.startsWith(":") ? second : first;
};

const METHOD_ACTIONS: Record<HttpMethod, string> = {
  GET: "retrieve",
  POST: "create",
  PUT: "update",
  PATCH: "partial_update",
  DELETE: "destroy",
};

/** Waldur's (drf-spectacular's) operation ids: `marketplace_offering_users_list`, `…_set_ok`, `…_update_comments_partial_update`. */
function operationId(route: CompiledRoute, head = false): string {
  const words = pathSegments(route.path)
    .filter((segment) => segment !== "api" && !segment.startsWith(":"))
    .map((segment) => segment.replaceAll("-", "_"));
  const isAction = words.length > 1;
  const action = head ? "count" : route.kind === "list" ? "list" : route.method === "POST" && isAction ? undefined : METHOD_ACTIONS[route.method];
  return [...words, action].filter(Boolean).join("_");
}

interface OperationFacts {
  isPublic: boolean;
  isMutation: boolean;
  isList: boolean;
  hasPathParams: boolean;
  readsInput: boolean;
}

/** The domain errors an operation may meet; ERROR_STATUS and the route's overrides turn them into statuses. */
const POSSIBLE_ERRORS: Array<[ErrorCode, (op: OperationFacts) => boolean]> = [
  [ErrorCode.VALIDATION, (op) => op.readsInput || op.isMutation],
  [ErrorCode.INVALID_TRANSITION, (op) => op.isMutation],
  [ErrorCode.UNAUTHENTICATED, () => true],
  [ErrorCode.FORBIDDEN, (op) => !op.isPublic],
  [ErrorCode.NOT_FOUND, (op) => op.hasPathParams || op.isList],
  [ErrorCode.CONFLICT, (op) => op.isMutation],
  [ErrorCode.RATE_LIMITED, (op) => op.isMutation],
  [ErrorCode.UNAVAILABLE, () => true],
];

/** Answered before any route runs: a request-target over 8 KiB (src/server/request-target.ts). */
const EVERY_REQUEST = [414];

function errorResponses(route: CompiledRoute, facts: OperationFacts, hasBody: boolean) {
  const statuses = POSSIBLE_ERRORS.filter(([, applies]) => applies(facts)).map(
    ([code]) => route.errorStatus?.[code] ?? ERROR_STATUS[code],
  );
  statuses.push(...EVERY_REQUEST);
  if (hasBody) statuses.push(413);
  return Object.fromEntries([...new Set(statuses)].sort((a, b) => a - b).map((status) => [String(status), errorResponse(status)]));
}

const json = (schema: JsonSchema) => ({ "application/json": { schema } });

const LIST_HEADERS = {
  "X-Result-Count": { $ref: "#/components/headers/XResultCount" },
  Link: { $ref: "#/components/headers/Link" },
};

/** A route with `statusOf` answers its `status` or the default 200, depending on the result. */
const successStatuses = (route: CompiledRoute) => [...new Set([route.status ?? 200, ...(route.statusOf ? [200] : [])])];

function successResponses(route: CompiledRoute, body: JsonSchema | undefined) {
  const response = (status: number) => {
    const description = SUCCESS_DESCRIPTIONS[status] ?? "Success";
    if (route.kind === "list") return { description, headers: LIST_HEADERS, content: json({ type: "array", items: body }) };
    return body ? { description, content: json(body) } : { description };
  };
  return Object.fromEntries(successStatuses(route).map((status) => [String(status), response(status)]));
}

const pathParameters = (route: CompiledRoute) =>
  [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: name === "uuid" ? UUID_SCHEMA : { type: "string" },
  }));

function fieldParameter(fields: string[]) {
  return {
    name: "field",
    in: "query",
    description: "Keep only these properties in the response (repeatable)",
    schema: { type: "array", items: { type: "string", enum: fields } },
  };
}

/** The query parameters a route reads: a list's contract, or a route's own declared parameters. */
function queryParameters(route: CompiledRoute) {
  const declared = route.contract ?? route.query;
  return declared ? contractParameters(declared) : [];
}

/** The request body a route reads, as its body contract declares it. */
const requestBody = (route: CompiledRoute) =>
  route.body ? { requestBody: { required: Boolean(route.body.schema.required ?? route.body.schema.oneOf), content: json(route.body.schema) } } : {};

class DocumentBuilder {
  readonly responses: ResponseSchemas;
  readonly paths: Record<string, Record<string, unknown>> = {};
  private readonly ids = new Set<string>();

  constructor(
    private readonly routes: CompiledRoute[],
    schema: GraphQLSchema,
  ) {
    this.responses = new ResponseSchemas(schema);
  }

  build() {
    for (const route of this.routes) this.add(route);
    return this.paths;
  }

  private uniqueId(id: string) {
    let unique = id;
    for (let n = 2; this.ids.has(unique); n++) unique = `${id}_${n}`;
    this.ids.add(unique);
    return unique;
  }

  private add(route: CompiledRoute) {
    const query = queryParameters(route);
    const body = this.responses.of(route);
    const operation = operationOf(route);
    const facts: OperationFacts = {
      isPublic: Boolean(route.public),
      isMutation: operation.operation === "mutation",
      isList: route.kind === "list",
      hasPathParams: route.path.includes(":"),
      readsInput: query.length > 0 || route.body !== undefined,
    };
    const fields = body ? Object.keys((this.responses.resolve(body).properties as object | undefined) ?? {}) : [];
    const paging = route.kind === "list" ? [{ $ref: "#/components/parameters/Page" }, { $ref: "#/components/parameters/PageSize" }] : [];
    const selection = fields.length && (route.kind === "list" || route.method === "GET") ? [fieldParameter(fields)] : [];
    const common = {
      tags: [collectionOf(route.path)],
      summary: route.summary,
      ...(route.public ? { security: [] } : {}),
      "x-graphql-field": operation.selectionSet.selections.find((s) => s.kind === Kind.FIELD)?.name.value,
    };
    const item = (this.paths[openApiPath(route.path)] ??= {});
    item[route.method.toLowerCase()] = {
      operationId: this.uniqueId(operationId(route)),
      ...common,
      parameters: [...pathParameters(route), ...paging, ...selection, ...query],
      ...requestBody(route),
      responses: { ...successResponses(route, body), ...errorResponses(route, facts, route.body !== undefined) },
    };
    if (route.kind === "list") {
      item.head = {
        operationId: this.uniqueId(operationId(route, true)),
        ...common,
        description: "The headers of the list (X-Result-Count, Link) without its body.",
        parameters: [...pathParameters(route), ...paging, ...query],
        responses: { 200: { description: "OK", headers: LIST_HEADERS }, ...errorResponses(route, facts, false) },
      };
    }
  }
}

const DESCRIPTION = `Waldur-compatible marketplace REST API. Each operation runs one GraphQL field (\`x-graphql-field\`)
through the resolvers that also serve \`/graphql\`.

- Paths end with \`/\` (the form without it is accepted too); uuids are 32 hex characters, the dashed form is accepted.
- Authentication: \`Authorization: Token <key>\` (or \`?x-auth-token=<key>\`); \`POST /api-auth/password/\` issues a key.
- Lists are bare JSON arrays: \`page\`, \`page_size\` (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}), the total in
  \`X-Result-Count\` and RFC 5988 links in \`Link\`; \`field\` keeps only the named properties.
- Errors are Waldur's: \`{"detail": "…"}\` or \`{"field": ["message"]}\`; a method a path does not serve is 405.`;

export interface DocumentOptions {
  version: string;
  publicUrl?: string;
}

export function buildOpenApiDocument(routes: CompiledRoute[], schema: GraphQLSchema, options: DocumentOptions) {
  const builder = new DocumentBuilder(routes, schema);
  const paths = builder.build();
  return {
    openapi: "3.1.0",
    info: { title: "Marketplace Gateway", version: options.version, description: DESCRIPTION },
    ...(options.publicUrl ? { servers: [{ url: options.publicUrl }] } : {}),
    security: SECURITY,
    paths,
    components: { ...COMPONENTS, schemas: { ...COMPONENTS.schemas, ...builder.responses.components } },
  };
}
