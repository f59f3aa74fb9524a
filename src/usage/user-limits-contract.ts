import type { Prisma } from "../generated/prisma/client.ts";
import { defineContract } from "../collections/contract.ts";

/**
 * Per-user component usage limits: Waldur's filters (`resource`, `resource_uuid`, `offering_uuid`, `component_type`,
 * `username`) and ours (`user`, `user_uuid`, `component_uuid`, and the orderings: Waldur's list has none).
 */
export const USER_LIMIT_CONTRACT = defineContract<Prisma.ComponentUserUsageLimitWhereInput, Prisma.ComponentUserUsageLimitOrderByWithRelationInput>()({
  filters: {
    resourceUuid: {
      kind: "uuids",
      rest: { resource_uuid: "uuid", resource: { url: "providerResource" } },
      where: (ids) => ({ resourceId: { in: ids } }),
    },
    offeringUuid: { kind: "uuids", rest: { offering_uuid: "uuid" }, where: (ids) => ({ resource: { offeringId: { in: ids } } }) },
    componentUuid: { kind: "uuids", rest: { component_uuid: "uuid" }, where: (ids) => ({ componentId: { in: ids } }) },
    componentType: { kind: "text", rest: "component_type", description: "Exact", where: (type) => ({ component: { type } }) },
    userUuid: { kind: "uuids", rest: { user_uuid: "uuid", user: { url: "user" } }, where: (ids) => ({ userId: { in: ids } }) },
    username: { kind: "text", rest: "username", description: "The limited user's username, exact", where: (username) => ({ user: { username } }) },
  },
  orderings: {
    created: (direction) => ({ created: direction }),
    modified: (direction) => ({ modified: direction }),
    limit: (direction) => ({ limit: direction }),
  },
  defaultOrder: ["created"],
  tiebreak: [{ id: "asc" }],
});
