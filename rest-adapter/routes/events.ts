import { fieldError } from "../../src/platform/errors.ts";
import { parseUuid } from "../../src/platform/ids.ts";
import { compact, numberParam, queryValue, queryValues, uuidParam } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";

/** The REST collection of each kind of event scope, to read `scope=<url>`. */
const SCOPE_COLLECTIONS: Record<string, string> = {
  users: "USER",
  customers: "CUSTOMER",
  projects: "PROJECT",
  "marketplace-provider-offerings": "OFFERING",
  "marketplace-public-offerings": "OFFERING",
  "marketplace-service-providers": "SERVICE_PROVIDER",
  "marketplace-offering-users": "OFFERING_USER",
  "maintenance-announcements": "MAINTENANCE",
  "public-maintenance-announcements": "MAINTENANCE",
  "marketplace-offering-terms-of-service": "TERMS_OF_SERVICE",
  "marketplace-orders": "ORDER",
  "marketplace-provider-resources": "RESOURCE",
  "marketplace-resources": "RESOURCE",
};

function scope(value: string | undefined) {
  if (value === undefined) return undefined;
  let path = "";
  try {
    path = new URL(value, "http://x").pathname;
  } catch {
    path = "";
  }
  const match = /\/api\/([\w-]+)\/([0-9a-fA-F-]{32,36})\/?$/.exec(path);
  const type = match ? SCOPE_COLLECTIONS[match[1]] : undefined;
  if (!match || !type || !parseUuid(match[2])) throw fieldError("scope", "Invalid scope URL.");
  return { type, uuid: match[2] };
}

function eventFilter({ query }: RestRequest) {
  const types = queryValues(query, "event_type").flatMap((t) => t.split(","));
  return compact({
    eventType: types.length ? types : undefined,
    scope: scope(queryValue(query, "scope")),
    createdFrom: numberParam(query, "created_from"),
    createdTo: numberParam(query, "created_to"),
    message: queryValue(query, "message"),
    userUuid: uuidParam(query, "user_uuid"),
    customerUuid: uuidParam(query, "customer_uuid"),
    projectUuid: uuidParam(query, "project_uuid"),
  });
}

const ORDER: Record<string, string> = { created: "CREATED_ASC", "-created": "CREATED_DESC" };

function eventOrder(query: URLSearchParams) {
  const o = queryValue(query, "o");
  if (o === undefined) return undefined;
  if (!ORDER[o]) throw fieldError("o", `Select a valid choice. ${o} is not one of the available choices.`);
  return ORDER[o];
}

export const eventRoutes: RouteSpec[] = [
  {
    method: "GET",
    path: "/api/events/",
    summary: "List audit events",
    document: `query($first: Int, $offset: Int, $filter: EventFilter, $orderBy: EventOrder) {
      events(first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) { totalCount nodes { ...EventRest } } }`,
    variables: (request) => compact({ filter: eventFilter(request), orderBy: eventOrder(request.query) }),
    kind: "list",
  },
  {
    method: "GET",
    path: "/api/events/count/",
    summary: "Count audit events under the same filters",
    document: `query($filter: EventFilter) { eventCount(filter: $filter) }`,
    variables: (request) => ({ filter: eventFilter(request) }),
    kind: "object",
    shape: (count: number) => ({ count }),
  },
  {
    method: "GET",
    path: "/api/events/:id/",
    summary: "Retrieve an audit event by its id",
    document: `query($id: ID!) { event(id: $id) { ...EventRest } }`,
    variables: ({ params }) => ({ id: params.id }),
    kind: "object",
  },
];
