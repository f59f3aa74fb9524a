import type { Prisma } from "../generated/prisma/client.ts";
import { defineContract } from "../collections/contract.ts";

export const AGENT_IDENTITY_CONTRACT = defineContract<Prisma.AgentIdentityWhereInput, Prisma.AgentIdentityOrderByWithRelationInput>()({
  filters: {
    name: { kind: "text", rest: "name", description: "Exact", where: (name) => ({ name }) },
    offeringUuid: { kind: "uuids", rest: { offering_uuid: "uuid" }, where: (ids) => ({ offeringId: { in: ids } }) },
    version: { kind: "text", rest: "version", description: "The reported agent version, exact", where: (version) => ({ version }) },
    lastRestartedAfter: {
      kind: "after",
      rest: "last_restarted",
      description: "Last (re)started at or after; an agent that never reported a start counts from its registration",
      where: (gte) => ({ OR: [{ lastRestarted: { gte } }, { lastRestarted: null, created: { gte } }] }),
    },
    orphaned: {
      kind: "boolean",
      rest: "orphaned",
      description: "Has no registered services",
      where: (orphaned) => (orphaned ? { services: { none: {} } } : { services: { some: {} } }),
    },
  },
  // Waldur's list takes no `o`; GraphQL and `o=` here order by registration time.
  orderings: { created: (direction) => ({ created: direction }) },
  defaultOrder: ["-created"],
  tiebreak: [{ id: "asc" }],
});
