// Documents as a frontend writes them (the dashboard's reads, an action and its live feed), typed by graphql-codegen's
// client preset over schema.graphql, the public graph: relations as objects, enums rather than REST's labels.
// `scripts/codegen-check.sh` generates ./gql and type-checks this file with it.
import { graphql } from "./gql";
import type { DashboardQuery, OfferingUserState, SetOkMutation, SetOkMutationVariables, ChangesSubscription } from "./gql/graphql";

export const Dashboard = graphql(`
  query Dashboard($first: Int, $after: String, $filter: OfferingUserFilter) {
    me { id username providers { id name } roles { role scope { id } } }
    offeringUserCounts(filter: $filter) { states { state count } offerings { offering { id name } states { state count } } }
    offeringUsers(first: $first, after: $after, filter: $filter) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        id uuid username state availableTransitions { operation mutation to permitted }
        user { username fullName email } offering { name customer { name } }
      }
    }
    orders(filter: { state: [PENDING_PROVIDER] }) {
      nodes { id uuid type state availableTransitions { mutation permitted } project { name customer { name } } createdBy { username } }
    }
  }
`);

export const SetOk = graphql(`
  mutation SetOk($input: SetOkOfferingUserInput!) {
    setOkOfferingUser(input: $input) {
      __typename
      ... on OfferingUser { id state }
      ... on Error { message code }
      ... on OfferingUserTransitionError { currentState allowedFrom }
    }
  }
`);

export const Changes = graphql(`
  subscription Changes($after: Int) {
    offeringUserChanged(after: $after) { state previousState offeringUser { id state } event { eventId type subject { id } } }
  }
`);

/** What a component does with the answers: the types must carry the unions, nullability and enums. */
export function describe(answer: SetOkMutation): string {
  const result = answer.setOkOfferingUser;
  if (!result) return "not run";
  switch (result.__typename) {
    case "OfferingUser":
      return `now ${result.state satisfies string}`;
    case "OfferingUserTransitionError": {
      const allowed: OfferingUserState[] = result.allowedFrom;
      return `${result.currentState satisfies OfferingUserState} is not one of ${allowed.join(", ")}`;
    }
    // @ts-expect-error setOk takes nothing but the id, so its union has no ValidationError for a client to handle
    case "ValidationError":
      return "unreachable";
    default:
      return result.message;
  }
}

/** An action names its object by the global id selected on it, as it came: `input: { id }`. */
export const setOk = (node: DashboardQuery["offeringUsers"]["nodes"][number]): SetOkMutationVariables => ({ input: { id: node.id } });

export const pending = (data: DashboardQuery) => data.offeringUsers.nodes.filter((node) => node.availableTransitions.some((a) => a.permitted));
export const resumeFrom = (change: ChangesSubscription) => change.offeringUserChanged.event.eventId;
export const node = (data: DashboardQuery) => data.me.id;
/** A user's name and email are null when the viewer may not read them; the username always answers. */
export const rows = (data: DashboardQuery) =>
  data.offeringUsers.nodes.map((node) => `${node.user.fullName ?? node.user.username} in ${node.offering.name} (${node.offering.customer.name})`);
export const requests = (data: DashboardQuery) =>
  data.orders.nodes.map((order) => `${order.type satisfies string} for ${order.project.customer.name} by ${order.createdBy?.username ?? "nobody"}`);
