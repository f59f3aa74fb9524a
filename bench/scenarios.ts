import { isDeepStrictEqual } from "node:util";
import { FRAGMENTS } from "../rest-adapter/fragments.ts";
import { fetchJson, type RequestSpec } from "./load.ts";

export const PAGE_SIZE = 10;
export const LIST_PATH = `/api/marketplace-offering-users/?page_size=${PAGE_SIZE}`;

const fragment = FRAGMENTS.find((f) => f.name === "OfferingUserRest")!;
/** The REST list route's selection, asked for directly: same fragment, same page, same total count. */
export const LIST_QUERY = `query { offeringUsers(first: ${PAGE_SIZE}) { totalCount nodes { ...OfferingUserRest } } }\n${fragment.text}`;

const auth = (token: string) => ({ authorization: `Token ${token}` });

export const restListRequest = (token: string): RequestSpec => ({ method: "GET", path: LIST_PATH, headers: auth(token) });

export function graphqlListRequest(token: string): RequestSpec {
  return {
    method: "POST",
    path: "/graphql",
    headers: { ...auth(token), "content-type": "application/json", accept: "application/json" },
    body: Buffer.from(JSON.stringify({ query: LIST_QUERY })),
  };
}

type Row = Record<string, unknown>;

/** Reads one page over REST (and GraphQL when asked) and checks that they agree; returns the REST page. */
export async function checkList(baseUrl: string, token: string, expectedCount: number, compareGraphql: boolean) {
  const rest = await fetchJson(baseUrl + LIST_PATH, { headers: auth(token) });
  const count = Number(rest.headers.get("x-result-count"));
  if (rest.status !== 200 || !Array.isArray(rest.body) || rest.body.length !== PAGE_SIZE || count !== expectedCount) {
    throw new Error(`REST list check failed at ${baseUrl}: status ${rest.status}, count ${count}, ${JSON.stringify(rest.body).slice(0, 300)}`);
  }
  if (compareGraphql) {
    const spec = graphqlListRequest(token);
    const gql = await fetchJson(baseUrl + spec.path, { method: "POST", headers: spec.headers, body: spec.body!.toString() });
    const connection = gql.body?.data?.offeringUsers;
    if (gql.status !== 200 || gql.body?.errors || connection?.totalCount !== expectedCount) {
      throw new Error(`GraphQL list check failed: ${JSON.stringify(gql.body).slice(0, 300)}`);
    }
    if (!isDeepStrictEqual(connection.nodes, rest.body)) throw new Error("GraphQL nodes differ from the REST page");
  }
  return rest.body as Row[];
}

/**
 * The floor must answer the same rows with the same values (its URLs carry its own port). Returns the fields of
 * the gateway's page that the floor does not serialise (the fragment may have grown since the floor was written).
 */
export function checkSameRows(reference: Row[], floor: Row[]): string[] {
  const uuids = (rows: Row[]) => rows.map((r) => r.uuid);
  if (!isDeepStrictEqual(uuids(reference), uuids(floor))) throw new Error("the bare floor answers other rows than the gateway");
  const URL_FIELDS = new Set(["url", "offering", "user"]);
  const missing = Object.keys(reference[0] ?? {}).filter((key) => !(key in (floor[0] ?? {})));
  reference.forEach((row, i) => {
    for (const key of Object.keys(floor[i])) {
      if (!(key in row)) throw new Error(`the bare floor serialises ${key}, which the gateway does not`);
      if (!URL_FIELDS.has(key) && !isDeepStrictEqual(row[key], floor[i][key])) {
        throw new Error(`the bare floor's ${key} differs: ${JSON.stringify(floor[i][key])} vs ${JSON.stringify(row[key])}`);
      }
    }
  });
  return missing;
}

/**
 * A cycle every offering user can run forever, one committed transaction and one event per step:
 * Requested → Creating → OK → Requested deletion → Deleting → Error deleting → OK → …
 */
const NEXT: Record<string, { operation: string; to: string }> = {
  Requested: { operation: "begin_creating", to: "Creating" },
  "Error creating": { operation: "begin_creating", to: "Creating" },
  Creating: { operation: "set_ok", to: "OK" },
  "Pending account linking": { operation: "set_validation_complete", to: "OK" },
  "Pending additional validation": { operation: "set_validation_complete", to: "OK" },
  OK: { operation: "request_deletion", to: "Requested deletion" },
  "Requested deletion": { operation: "set_deleting", to: "Deleting" },
  Deleting: { operation: "set_error_deleting", to: "Error deleting" },
  "Error deleting": { operation: "set_ok", to: "OK" },
};

/** Each connection owns its own offering users (no lost races) and walks them round-robin through the cycle. */
export async function transitionRequests(baseUrl: string, token: string, connections: number) {
  const all = await fetchJson(`${baseUrl}/api/marketplace-offering-users/?page_size=300`, { headers: auth(token) });
  const users = (all.body as Row[])
    .filter((row) => NEXT[row.state as string])
    .map((row) => ({ uuid: row.uuid as string, state: row.state as string }));
  if (users.length < connections) throw new Error(`only ${users.length} offering users can transition`);
  const owned = Array.from({ length: connections }, (_, w) => users.filter((_, i) => i % connections === w));
  const cursor = new Array<number>(connections).fill(0);
  const headers = { ...auth(token), "content-type": "application/json" };
  const body = Buffer.from("{}");
  const next = (worker: number): RequestSpec => {
    const mine = owned[worker];
    const user = mine[cursor[worker]++ % mine.length];
    const step = NEXT[user.state];
    return {
      method: "POST",
      path: `/api/marketplace-offering-users/${user.uuid}/${step.operation}/`,
      headers,
      body,
      settled: (status) => {
        if (status === 200) user.state = step.to;
      },
    };
  };
  return { next, offeringUsers: users.length };
}
