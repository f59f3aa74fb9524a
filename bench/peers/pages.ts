import type { RequestSpec } from "../load.ts";

/**
 * The page every peer serves: 10 offering users with state, created, the user's username, email and full name, the
 * offering's name, and the total count, in the gateway's default order (username, created, id).
 */
export const PEER_TARGETS = ["graphql", "rest", "postgraphile", "drf", "bare", "embedded"] as const;
export type PeerTarget = (typeof PEER_TARGETS)[number];
export const PEER_PAGE_SIZE = 10;

const GATEWAY_PAGE = `query OfferingUsersPage {
  offeringUsers(first: ${PEER_PAGE_SIZE}) { totalCount nodes { uuid state created user { username email fullName } offering { name } } }
}`;
/** PostGraphile's names for our Prisma-created tables (Amber preset): `id` is `rowId`, relations are `<table>By<Column>`. */
const POSTGRAPHILE_PAGE = `query OfferingUsersPage {
  allOfferingUsers(first: ${PEER_PAGE_SIZE}, orderBy: [USERNAME_ASC, CREATED_ASC, PRIMARY_KEY_ASC]) {
    totalCount nodes { rowId state created userByUserId { username email firstName lastName } offeringByOfferingId { name } }
  }
}`;
const LIST_PATH = `/api/marketplace-offering-users/?page_size=${PEER_PAGE_SIZE}`;

/** Short names for the report (docs/testing.md "Peers" says what each one does); the peers add their versions. */
export const PEER_LABELS: Record<PeerTarget, string> = {
  graphql: `gateway GraphQL offeringUsers(first: ${PEER_PAGE_SIZE})`,
  rest: `gateway REST ?page_size=${PEER_PAGE_SIZE}`,
  postgraphile: `PostGraphile allOfferingUsers(first: ${PEER_PAGE_SIZE})`,
  drf: "Django REST Framework",
  bare: "bare node:http + pg",
  embedded: `gateway GraphQL offeringUsers(first: ${PEER_PAGE_SIZE}) on the embedded database (PGlite, in the server's process)`,
};

const graphql = (query: string, headers: Record<string, string> = {}): RequestSpec => ({
  method: "POST",
  path: "/graphql",
  headers: { ...headers, "content-type": "application/json", accept: "application/json" },
  body: Buffer.from(JSON.stringify({ query })),
});

export function peerRequest(target: PeerTarget, token: string): RequestSpec {
  const auth = { authorization: `Token ${token}` };
  const requests: Record<PeerTarget, RequestSpec> = {
    graphql: graphql(GATEWAY_PAGE, auth),
    rest: { method: "GET", path: LIST_PATH, headers: auth },
    postgraphile: graphql(POSTGRAPHILE_PAGE),
    // With the token whether or not the DRF peer checks it (BENCH_PEERS_DRF_AUTH).
    drf: { method: "GET", path: LIST_PATH, headers: auth },
    bare: { method: "GET", path: LIST_PATH, headers: auth },
    embedded: graphql(GATEWAY_PAGE, auth),
  };
  return requests[target];
}

/**
 * What the checks compare: the rows' uuids (hex, as the gateway writes them) and users' usernames, and the count. The
 * embedded gateway seeds a database of its own: the same usernames, other uuids.
 */
export interface PageSummary {
  count: number;
  rows: Array<{ uuid?: string; username: string }>;
}
type Json = Record<string, any>;
const hex = (uuid: string) => uuid.replaceAll("-", "");

const READERS: Record<PeerTarget, (body: Json, headers: Headers) => PageSummary> = {
  graphql: (body) => ({
    count: body.data.offeringUsers.totalCount,
    rows: body.data.offeringUsers.nodes.map((n: Json) => ({ uuid: n.uuid, username: n.user.username })),
  }),
  rest: (body, headers) => ({ count: Number(headers.get("x-result-count")), rows: body.map((r: Json) => ({ uuid: r.uuid, username: r.user_username })) }),
  postgraphile: (body) => ({
    count: body.data.allOfferingUsers.totalCount,
    rows: body.data.allOfferingUsers.nodes.map((n: Json) => ({ uuid: hex(n.rowId), username: n.userByUserId.username })),
  }),
  drf: (body) => ({ count: body.count, rows: body.results.map((r: Json) => ({ uuid: r.uuid, username: r.user_username })) }),
  bare: (body, headers) => ({ count: Number(headers.get("x-result-count")), rows: body.map((r: Json) => ({ uuid: r.uuid, username: r.user_username })) }),
  embedded: (body) => ({
    count: body.data.offeringUsers.totalCount,
    rows: body.data.offeringUsers.nodes.map((n: Json) => ({ username: n.user.username })),
  }),
};

/** One request of the target's page, read into a summary; throws with the answer when it is no page. */
export async function fetchPage(target: PeerTarget, baseUrl: string, token: string): Promise<PageSummary> {
  const spec = peerRequest(target, token);
  const response = await fetch(baseUrl + spec.path, { method: spec.method, headers: spec.headers, body: spec.body?.toString() });
  const text = await response.text();
  try {
    const body = JSON.parse(text) as Json;
    if (response.status !== 200 || body.errors) throw new Error("not a page");
    return READERS[target](body, response.headers);
  } catch {
    throw new Error(`${spec.method} ${spec.path} answered ${response.status}: ${text.slice(0, 300)}`);
  }
}

/** How `page` differs from the reference page, or undefined when it is the same page. */
export function pageDifference(reference: PageSummary, page: PageSummary): string | undefined {
  if (page.rows.length !== PEER_PAGE_SIZE) return `${page.rows.length} rows, not ${PEER_PAGE_SIZE}`;
  if (page.count !== reference.count) return `total count ${page.count}, the gateway's ${reference.count}`;
  const at = page.rows.findIndex((row, i) => (row.uuid !== undefined && row.uuid !== reference.rows[i]?.uuid) || row.username !== reference.rows[i]?.username);
  return at < 0 ? undefined : `row ${at + 1} is ${page.rows[at].uuid} (${page.rows[at].username}), the gateway's ${reference.rows[at]?.uuid} (${reference.rows[at]?.username})`;
}
