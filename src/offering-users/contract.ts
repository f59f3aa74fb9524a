import type { OfferingUserState, Prisma } from "../generated/prisma/client.ts";
import { choiceFilter, defineContract, postgresNulls } from "../platform/collection-contract.ts";
import { icontains, iexact } from "../platform/text-match.ts";
import { OFFERING_USER_STATES } from "./states.ts";

const STATE_BY_LABEL = Object.fromEntries(
  Object.entries(OFFERING_USER_STATES).map(([state, { label }]) => [label, state as OfferingUserState]),
);

export const OFFERING_USER_CONTRACT = defineContract<Prisma.OfferingUserWhereInput, Prisma.OfferingUserOrderByWithRelationInput>()({
  filters: {
    state: choiceFilter({
      rest: "state",
      labels: STATE_BY_LABEL,
      enumName: "OfferingUserState",
      description: "Any of these states",
      where: (states) => ({ state: { in: states } }),
    }),
    providerUuid: {
      kind: "uuids",
      rest: { provider_uuid: "uuid" },
      description: "Customer uuid of the offering's service provider",
      where: (ids) => ({ offering: { customerId: { in: ids } } }),
    },
    offeringUuid: {
      kind: "uuids",
      rest: { offering_uuid: "uuids", offering: { url: "offering" } },
      description: "Any of these offerings",
      where: (ids) => ({ offeringId: { in: ids } }),
    },
    userUuid: { kind: "uuids", rest: { user_uuid: "uuid" }, where: (ids) => ({ userId: { in: ids } }) },
    username: { kind: "text", rest: "username", description: "Exact, case-sensitive", where: (username) => ({ username }) },
    userUsername: {
      kind: "text",
      rest: "user_username",
      description: "Exact, case-insensitive",
      where: (username) => ({ user: { username: iexact(username) } }),
    },
    createdAfter: { kind: "after", rest: ["created", "created_after"], description: "Created at or after", where: (gte) => ({ created: { gte } }) },
    createdBefore: { kind: "before", rest: "created_before", where: (lt) => ({ created: { lt } }) },
    modifiedAfter: { kind: "after", rest: ["modified", "modified_after"], description: "Modified at or after", where: (gte) => ({ modified: { gte } }) },
    modifiedBefore: { kind: "before", rest: "modified_before", where: (lt) => ({ modified: { lt } }) },
    isRestricted: { kind: "boolean", rest: "is_restricted", where: (isRestricted) => ({ isRestricted }) },
    query: {
      kind: "text",
      rest: "query",
      description: "Searches username, offering name and user name",
      where: (text) => {
        const contains = icontains(text.trim());
        return {
          OR: [
            { username: contains },
            { offering: { name: contains } },
            { user: { OR: [{ firstName: contains }, { lastName: contains }, { username: contains }] } },
          ],
        };
      },
    },
  },
  orderings: {
    created: (direction) => ({ created: direction }),
    modified: (direction) => ({ modified: direction }),
    username: (direction) => ({ username: postgresNulls(direction) }),
  },
  defaultOrder: ["username"],
  tiebreak: [{ created: "asc" }, { id: "asc" }],
});
