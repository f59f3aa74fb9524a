import type { CollectionContract, QueryParameters } from "../src/collections/contract.ts";
import type { RequestBody } from "./body-contract.ts";
import type { RestRequest } from "./rest-request.ts";
import type { ErrorCode } from "../src/platform/errors.ts";

export type { QueryParameters } from "../src/collections/contract.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type { RestRequest } from "./rest-request.ts";

/**
 * One documented REST path: the GraphQL operation it runs, how the request becomes variables, and how the
 * result becomes Waldur's response. `list` routes get `$first`/`$offset` from page/page_size and answer with
 * a bare array plus X-Result-Count and Link; `object` answers with the root field's value; `empty` with no body.
 */
export interface RouteSpec {
  method: HttpMethod;
  path: string;
  summary: string;
  document: string;
  variables?: (request: RestRequest) => Record<string, unknown>;
  kind: "list" | "object" | "empty";
  status?: number;
  /** The status for one response, when it depends on the result (201 created vs 200 refreshed). */
  statusOf?: (value: any) => number;
  /** Reshapes the root field's value, or each item of a list (after aliases did the renaming). */
  shape?: (value: any) => unknown;
  /** Where Waldur answers a domain error with another status than the default table. */
  errorStatus?: Partial<Record<ErrorCode, number>>;
  /** A list's filters and orderings: its query string is read from them, and OpenAPI documents them. */
  contract?: CollectionContract;
  /** The query parameters of a route that is not a list, declared as a contract's filters are. */
  query?: QueryParameters;
  /** The request body the route reads (see `withBody`); OpenAPI documents it and field errors are renamed by it. */
  body?: RequestBody;
  /** The route needs no authentication (others still reject a bad token). */
  public?: boolean;
}
