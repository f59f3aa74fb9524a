import type { GraphQLError } from "graphql";
import { DomainError, ErrorCode } from "../src/platform/errors.ts";
import { databaseErrorForClient } from "../src/platform/database/database-errors.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../src/platform/reads/paginate.ts";
import { boundedBody } from "../src/platform/error-messages.ts";
import { restFieldErrors } from "./field-names.ts";

/** Domain error code → HTTP status, as Waldur answers them. Routes may override single codes. */
export const ERROR_STATUS: Record<string, number> = {
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.VALIDATION]: 400,
  [ErrorCode.INVALID_TRANSITION]: 400,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.METHOD_NOT_ALLOWED]: 405,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.UNAVAILABLE]: 503,
  BAD_USER_INPUT: 400,
};

export interface WaldurError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function toWaldurError(thrown: GraphQLError, overrides: Partial<Record<string, number>> = {}): WaldurError {
  // A database failure thrown outside GraphQL's masking (authentication, before any resolver) is mapped here.
  const error = databaseErrorForClient(thrown) ?? thrown;
  const code = error.extensions?.code as string | undefined;
  const fields = error.extensions?.fields as Record<string, string[]> | undefined;
  const status = (code && (overrides[code] ?? ERROR_STATUS[code])) || (isVariableError(error) ? 400 : 500);
  if (status === 500) return { status, body: { detail: "Internal server error." } };
  // Field errors no route renamed (raised before any operation ran) still get Waldur's names.
  const body = boundedBody(fields && Object.keys(fields).length ? restFieldErrors(fields) : { detail: error.message });
  const headers = { ...(status === 401 ? { "WWW-Authenticate": "Token" } : {}), ...httpHeadersOf(error) };
  return Object.keys(headers).length ? { status, body, headers } : { status, body };
}

/** Response headers an error asks for, as yoga reads them for /graphql (`extensions.http.headers`, e.g. Retry-After). */
const httpHeadersOf = (error: GraphQLError) =>
  (error.extensions?.http as { headers?: Record<string, string> } | undefined)?.headers ?? {};

/** graphql-js reports input that does not fit the operation's variable types before anything runs. */
const isVariableError = (error: GraphQLError) => /^Variable "\$\w+"/.test(error.message);

export const invalidPage = () => new DomainError(ErrorCode.NOT_FOUND, "Invalid page.");

export interface PageRequest {
  page: number;
  pageSize: number;
  /** `?page=last` (DRF's last_page_strings): `page` is 1 until the count is known, see lastPage. */
  last?: boolean;
}

/** The largest offset GraphQL's `Int` carries; a page starting beyond it is beyond any list ("Invalid page.", 404). */
const MAX_OFFSET = 2 ** 31 - 1;

/**
 * Python's int() of a query value, as Django's paginator reads `page` and DRF `page_size`: an optional sign, digits
 * with single underscores between them, surrounding whitespace. `2.0`, `1e0`, `0x2` and `0b1` are not integers.
 */
const PYTHON_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;
export const pythonInt = (text: string): number | null => (PYTHON_INT.test(text) ? Number(text.replaceAll("_", "")) : null);

/** DRF's page_size: a positive integer, at most MAX_PAGE_SIZE; anything else is the default page size. */
function pageSizeOf(raw: string | null): number {
  const size = raw === null ? null : pythonInt(raw);
  return size !== null && size > 0 ? Math.min(size, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
}

export function pageRequest(query: URLSearchParams): PageRequest {
  const pageSize = pageSizeOf(query.get("page_size"));
  // DRF reads `query_params.get("page") or 1`, and "last" as the last page.
  const rawPage = query.get("page") || "1";
  if (rawPage === "last") return { page: 1, pageSize, last: true };
  const page = pythonInt(rawPage);
  if (page === null || page < 1 || (page - 1) * pageSize > MAX_OFFSET) throw invalidPage();
  return { page, pageSize };
}

/** The page `?page=last` names once the list's count is known (1 for an empty list). */
export const lastPage = ({ pageSize }: PageRequest, total: number): PageRequest => ({ page: Math.max(1, Math.ceil(total / pageSize)), pageSize });

/**
 * The most a Link header may take: four links repeating a long query string would outgrow the 16 KiB of response
 * headers Node's clients (undici, so `fetch`) accept, and the request-target alone may take 8 KiB.
 */
export const LINK_HEADER_BUDGET_BYTES = 12 * 1024;

const LINK_ORDER = ["first", "prev", "next", "last"] as const;
/** What a client paging through needs most comes first when not every link fits. */
const LINK_PRIORITY = ["next", "prev", "first", "last"] as const;
const LINK_SEPARATOR = ", ";

/** A token given in the query string (Waldur accepts `?x-auth-token=`) is never repeated into a Link. */
const NOT_LINKED = ["x-auth-token"];

/**
 * RFC 5988 links as DRF's LinkHeaderPagination writes them: first, prev, next, last (those that exist), query keys
 * sorted, without `x-auth-token`. Within `budget` bytes: links join in the order next, prev, first, last while they fit (so next is dropped
 * only when it alone is too long, and then the header is empty), and the header keeps DRF's order among those kept.
 */
export function linkHeader(url: URL, { page, pageSize }: PageRequest, total: number, budget = LINK_HEADER_BUDGET_BYTES): string {
  const last = Math.max(1, Math.ceil(total / pageSize));
  // The query without the page, read once; each link adds its own page to it.
  const kept = [...url.searchParams].filter(([name]) => name !== "page" && !NOT_LINKED.includes(name));
  const at = (n: number) => {
    const query = new URLSearchParams(n === 1 ? kept : [...kept, ["page", String(n)]]);
    query.sort();
    const search = query.toString();
    return `${url.origin}${url.pathname}${search ? `?${search}` : ""}`;
  };
  const pages: Partial<Record<(typeof LINK_ORDER)[number], number>> = { first: 1, last };
  if (page > 1) pages.prev = page - 1;
  if (page < last) pages.next = page + 1;
  const links = new Map<string, string>();
  let size = 0;
  for (const rel of LINK_PRIORITY) {
    const n = pages[rel];
    if (n === undefined) continue;
    const link = `<${at(n)}>; rel="${rel}"`;
    const grown = size + (links.size ? LINK_SEPARATOR.length : 0) + Buffer.byteLength(link);
    if (grown > budget) break;
    links.set(rel, link);
    size = grown;
  }
  return LINK_ORDER.flatMap((rel) => links.get(rel) ?? []).join(LINK_SEPARATOR);
}

/** `?field=a&field=b` keeps only those keys. */
export function selectFields(value: unknown, fields: string[]): unknown {
  if (!fields.length) return value;
  const pick = (item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).filter(([key]) => fields.includes(key)))
      : item;
  return Array.isArray(value) ? value.map(pick) : pick(value);
}
