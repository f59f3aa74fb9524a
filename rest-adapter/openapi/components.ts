import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../src/platform/reads/paginate.ts";
import type { JsonSchema } from "./json-schema.ts";

/** The parts of the document every route shares: Waldur's error bodies, paging, headers and authentication. */

export const UUID_SCHEMA: JsonSchema = {
  type: "string",
  format: "uuid",
  pattern: "^([0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$",
  description: "32 hex characters; the dashed form is accepted too",
};

export const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content" };

const detail = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Detail" } } },
});

/** Status → component in `components.responses`. */
export const ERROR_RESPONSE_NAMES: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  409: "Conflict",
  413: "PayloadTooLarge",
  414: "UriTooLong",
  429: "TooManyRequests",
  503: "ServiceUnavailable",
};

const RETRY_AFTER = { "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer" } } };

export function errorResponse(status: number) {
  const name = ERROR_RESPONSE_NAMES[status];
  return name ? { $ref: `#/components/responses/${name}` } : detail("Error");
}

const RESPONSES = {
  BadRequest: {
    description: "Invalid input (field errors), or an operation the object's state does not allow",
    content: {
      "application/json": {
        schema: { anyOf: [{ $ref: "#/components/schemas/FieldErrors" }, { $ref: "#/components/schemas/Detail" }] },
      },
    },
  },
  Unauthorized: {
    ...detail("No credentials, or an invalid or expired token"),
    headers: { "WWW-Authenticate": { schema: { type: "string", const: "Token" } } },
  },
  Forbidden: detail("The object is visible to the caller, who may not do this"),
  NotFound: detail("Unknown, invisible or malformed object, or a page beyond the last"),
  MethodNotAllowed: detail("The path does not serve this method"),
  Conflict: detail("The object's state does not allow this operation"),
  PayloadTooLarge: detail("The request body is larger than MAX_BODY_BYTES"),
  UriTooLong: detail("The path and query string are longer than 8 KiB"),
  TooManyRequests: { ...detail("Too many writes by this caller within the window (RATE_LIMIT_MUTATIONS)"), headers: RETRY_AFTER },
  ServiceUnavailable: { ...detail("The database did not answer in time (DATABASE_STATEMENT_TIMEOUT_MS); nothing was written"), headers: RETRY_AFTER },
};

export const COMPONENTS = {
  schemas: {
    Detail: { type: "object", properties: { detail: { type: "string" } }, required: ["detail"] },
    FieldErrors: {
      type: "object",
      description: 'Messages per field, as `{"field": ["message"]}`; `non_field_errors` for the object as a whole',
      additionalProperties: { type: "array", items: { type: "string" } },
    },
  } as Record<string, JsonSchema>,
  responses: RESPONSES,
  parameters: {
    Page: { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
    PageSize: {
      name: "page_size",
      in: "query",
      description: `Items per page; larger values are cut to ${MAX_PAGE_SIZE}`,
      schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    },
  },
  headers: {
    XResultCount: { description: "Number of items in the whole list", schema: { type: "integer" } },
    Link: { description: 'RFC 5988 links: rel="first", "prev", "next", "last"', schema: { type: "string" } },
  },
  securitySchemes: {
    Token: { type: "apiKey", in: "header", name: "Authorization", description: "`Token <key>`, the key being 40 hex characters" },
    TokenQuery: { type: "apiKey", in: "query", name: "x-auth-token", description: "The key alone" },
  },
};

export const SECURITY = [{ Token: [] }, { TokenQuery: [] }];
