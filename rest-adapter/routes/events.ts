import { EVENT_CONTRACT } from "../../src/events/contract.ts";
import { readFilters, readOrdering } from "../collection-query.ts";
import { compact } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";

const filterOf = ({ query }: RestRequest) => readFilters(EVENT_CONTRACT, query);

export const eventRoutes: RouteSpec[] = [
  {
    method: "GET",
    path: "/api/events/",
    summary: "List audit events",
    // Events order by one key, so the GraphQL field takes one order value.
    document: `query($first: Int, $offset: Int, $filter: EventFilter, $orderBy: EventOrder) {
      events(first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) { totalCount nodes { ...EventRest } } }`,
    variables: (request) => compact({ filter: filterOf(request), orderBy: readOrdering(EVENT_CONTRACT, request.query)?.[0] }),
    kind: "list",
    contract: EVENT_CONTRACT,
  },
  {
    method: "GET",
    path: "/api/events/count/",
    summary: "Count audit events under the same filters",
    document: `query($filter: EventFilter) { eventCount(filter: $filter) }`,
    variables: (request) => compact({ filter: filterOf(request) }),
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
