import { EVENT_CONTRACT } from "./contract.ts";
import { COLLECTIONS } from "../collections/rest-paths.ts";
import { readFilters, readOrdering } from "../../rest-adapter/collection-query.ts";
import { compact } from "../../rest-adapter/input.ts";
import type { QueryParameters, RouteSpec } from "../../rest-adapter/route.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";

const EVENT_REST_FRAGMENT = restFragment("EventRest", "Event", `uuid created event_type: eventType message context`);

const EVENTS = `/api/${COLLECTIONS.event}`;

/** The count reads the list's filters (and not its ordering or paging). */
const COUNT_QUERY: QueryParameters = { filters: EVENT_CONTRACT.filters };

const eventRoutes: RouteSpec[] = [
  {
    method: "GET",
    path: `${EVENTS}/`,
    summary: "List audit events",
    // Events order by one key, so the GraphQL field takes one order value.
    document: `query($first: Int, $offset: Int, $filter: EventFilter, $orderBy: EventOrder) {
      events(first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) { totalCount nodes { ...EventRest } } }`,
    variables: ({ query }) => compact({ filter: readFilters(EVENT_CONTRACT, query), orderBy: readOrdering(EVENT_CONTRACT, query)?.[0] }),
    kind: "list",
    contract: EVENT_CONTRACT,
  },
  {
    method: "GET",
    path: `${EVENTS}/count/`,
    summary: "Count audit events under the same filters",
    document: `query($filter: EventFilter) { eventCount(filter: $filter) }`,
    variables: ({ query }) => compact({ filter: readFilters(COUNT_QUERY, query) }),
    query: COUNT_QUERY,
    kind: "object",
    shape: (count: number) => ({ count }),
  },
  {
    method: "GET",
    path: `${EVENTS}/:id/`,
    summary: "Retrieve an audit event by its id",
    document: `query($id: ID!) { event(id: $id) { ...EventRest } }`,
    variables: ({ params }) => ({ id: params.id }),
    kind: "object",
  },
];

export const eventRest: RestSurface = { routes: eventRoutes, fragments: [EVENT_REST_FRAGMENT] };
