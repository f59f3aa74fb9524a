import { isDeepStrictEqual } from "node:util";
import { documentWithFragments } from "../rest-adapter/execute.ts";
import type { RouteSpec } from "../rest-adapter/route.ts";
import { REST_API } from "../src/modules.ts";
import { fetchJson, type RequestSpec } from "./load.ts";
import { OFFERING_USERS_PATH } from "./offering-user-json.ts";

/** The two reads of the ladder: one offering user by uuid, and a page of ten. */
export type Read = "one" | "list";
/** The ladder's layers, bottom to top. */
export const LAYERS = ["bare", "hono-prisma", "graphql", "rest"] as const;
export type Layer = (typeof LAYERS)[number];
export const READS: Read[] = ["one", "list"];

export const PAGE_SIZE = 10;
const LIST_QUERY = `page_size=${PAGE_SIZE}`;

const auth = (token: string) => ({ authorization: `Token ${token}` });
const routeOf = (path: string) => REST_API.routes.find((r) => r.method === "GET" && r.path === path)!;
const LIST_ROUTE = routeOf(OFFERING_USERS_PATH);
const ONE_ROUTE = routeOf(`${OFFERING_USERS_PATH}:uuid/`);

/** The variables the REST adapter derives from the request (rest-adapter/app.ts adds first/offset for lists). */
const variablesOf = (route: RouteSpec, params: Record<string, string>, query: string) => ({
  ...route.variables?.({ params, query: new URLSearchParams(query), body: {} }),
  ...(route.kind === "list" ? { first: PAGE_SIZE, offset: 0 } : {}),
});

function graphqlRequest(token: string, route: RouteSpec, variables: Record<string, unknown>): RequestSpec {
  return {
    method: "POST",
    path: "/graphql",
    headers: { ...auth(token), "content-type": "application/json", accept: "application/json" },
    body: Buffer.from(JSON.stringify({ query: documentWithFragments(route.document, REST_API.fragments), variables })),
  };
}

/** The requests of one read at one layer; the single-record read cycles through the uuids of the first page. */
export function ladderRequests(layer: Layer, read: Read, token: string, uuids: string[]): RequestSpec[] {
  if (layer === "graphql") {
    return read === "list"
      ? [graphqlRequest(token, LIST_ROUTE, variablesOf(LIST_ROUTE, {}, LIST_QUERY))]
      : uuids.map((uuid) => graphqlRequest(token, ONE_ROUTE, variablesOf(ONE_ROUTE, { uuid }, "")));
  }
  const get = (path: string): RequestSpec => ({ method: "GET", path, headers: auth(token) });
  return read === "list" ? [get(`${OFFERING_USERS_PATH}?${LIST_QUERY}`)] : uuids.map((uuid) => get(`${OFFERING_USERS_PATH}${uuid}/`));
}

/** What the layer answered, as the REST JSON (GraphQL's root field value), with its own origin replaced. */
async function answerOf(baseUrl: string, spec: RequestSpec) {
  const response = await fetchJson(baseUrl + spec.path, { method: spec.method, headers: spec.headers, body: spec.body?.toString() });
  if (response.status !== 200 || response.body?.errors) {
    throw new Error(`${spec.method} ${baseUrl}${spec.path}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
  }
  const value = spec.path === "/graphql" ? Object.values(response.body.data)[0] : response.body;
  const json = JSON.stringify((value as { nodes?: unknown }).nodes ?? value).replaceAll(baseUrl, "ORIGIN");
  return JSON.parse(json) as unknown;
}

/** The uuids of the first page, read over REST. */
export async function firstPageUuids(baseUrl: string, token: string): Promise<string[]> {
  const page = await answerOf(baseUrl, ladderRequests("rest", "list", token, [])[0]);
  return (page as Array<{ uuid: string }>).map((row) => row.uuid);
}

/**
 * Every layer must answer both reads with REST's JSON. Returns one line per difference (a layer below the gateway
 * lags behind the serializer, src/offering-users/rest.ts, when it grew), so the report can say so rather than compare unlike work.
 */
export async function compareLayers(baseUrls: Record<Layer, string>, token: string, uuids: string[]): Promise<string[]> {
  const differences: string[] = [];
  for (const read of READS) {
    const answers = await Promise.all(LAYERS.map((layer) => answerOf(baseUrls[layer], ladderRequests(layer, read, token, uuids)[0])));
    const reference = answers[LAYERS.indexOf("rest")];
    LAYERS.forEach((layer, i) => {
      if (!isDeepStrictEqual(answers[i], reference)) differences.push(`${layer} ${read}: ${describeDifference(reference, answers[i])}`);
    });
  }
  return differences;
}

function describeDifference(reference: unknown, other: unknown): string {
  const first = (value: unknown) => (Array.isArray(value) ? value[0] : value) as Record<string, unknown> | undefined;
  const [a, b] = [first(reference) ?? {}, first(other) ?? {}];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !isDeepStrictEqual(a[k], b[k]));
  return keys.length ? `fields ${keys.join(", ")} differ` : "rows differ";
}
