// The Relay app's operations: relay-compiler reads these tagged templates and writes their artifacts to
// __generated__/ (scripts/relay-check.sh); app.ts runs the artifacts, so this file is never executed.
import { graphql } from "relay-runtime";

export const page = graphql`
  query appOfferingUsersQuery($state: [OfferingUserState!], $first: Int = 2) {
    ...appOfferingUsers_query @arguments(state: $state, first: $first)
  }
`;

export const list = graphql`
  fragment appOfferingUsers_query on Query
  @refetchable(queryName: "appOfferingUsersPaginationQuery")
  @argumentDefinitions(state: { type: "[OfferingUserState!]" }, first: { type: "Int", defaultValue: 2 }, after: { type: "String" }) {
    offeringUsers(first: $first, after: $after, filter: { state: $state }) @connection(key: "appOfferingUsers_offeringUsers", filters: ["filter"]) {
      totalCount
      edges {
        node {
          id
          uuid
          state
          user {
            username
          }
        }
      }
    }
  }
`;

export const changed = graphql`
  subscription appOfferingUserChangedSubscription {
    offeringUserChanged {
      previousState
      state
      offeringUser {
        id
        state
      }
    }
  }
`;

export const remove = graphql`
  mutation appDeleteOfferingUserMutation($input: DeleteOfferingUserInput!) {
    deleteOfferingUser(input: $input) {
      __typename
      ... on Deletion {
        deletedId @deleteRecord
      }
      ... on Error {
        message
      }
    }
  }
`;
