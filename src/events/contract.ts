import type { EventScopeType, Prisma } from "../generated/prisma/client.ts";
import { defineContract } from "../collections/contract.ts";
import { fieldError } from "../platform/errors.ts";
import { icontains } from "../platform/reads/text-match.ts";
import { inEventGroups } from "./groups.ts";
import { comparableWithJson } from "../platform/json-depth.ts";

const inScope = (scopeType: EventScopeType, ids: string[]): Prisma.EventWhereInput => ({
  scopes: { some: { scopeType, scopeId: { in: ids } } },
});

function fromUnix(name: string, seconds: number) {
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) throw fieldError(name, "Enter a number.");
  return date;
}

/** A value the acting user's session left in the event's context (absent when it recorded none). */
const inContext = (key: string, value: string): Prisma.EventWhereInput =>
  comparableWithJson(value) ? { context: { path: [key], equals: value } } : { id: { in: [] } };

export const EVENT_CONTRACT = defineContract<Prisma.EventWhereInput, Prisma.EventOrderByWithRelationInput>()({
  filters: {
    eventType: { kind: "texts", rest: "event_type", description: "Any of these event types (exact)", where: (types) => ({ eventType: { in: types } }) },
    feature: {
      kind: "texts",
      rest: "feature",
      description: "Any of these event groups (users, resources, permissions, terms_of_service, …)",
      where: inEventGroups,
    },
    scope: {
      kind: "uuids",
      rest: {
        scope: {
          url: [
            "user",
            "customer",
            "project",
            "serviceProvider",
            "offering",
            "offeringUser",
            "termsOfService",
            "maintenanceAnnouncement",
            "publicMaintenanceAnnouncement",
            "order",
            "providerResource",
          ],
        },
      },
      description: "Events about this object",
      where: (ids) => ({ scopes: { some: { scopeId: { in: ids } } } }),
    },
    createdFrom: {
      kind: "number",
      rest: "created_from",
      description: "UNIX timestamp, inclusive",
      where: (seconds) => ({ created: { gte: fromUnix("createdFrom", seconds) } }),
    },
    createdTo: {
      kind: "number",
      rest: "created_to",
      description: "UNIX timestamp, exclusive",
      where: (seconds) => ({ created: { lt: fromUnix("createdTo", seconds) } }),
    },
    message: { kind: "text", rest: "message", description: "Case-insensitive substring", where: (text) => ({ message: icontains(text) }) },
    userUuid: {
      kind: "uuids",
      rest: { user_uuid: "uuid" },
      description: "Events about this user: caused by them or changing their accounts and roles",
      where: (ids) => inScope("USER", ids),
    },
    relatedUserUuid: {
      kind: "uuids",
      rest: { related_user_uuid: "uuid" },
      description: "Events the user caused or that affected them",
      where: (ids) => inScope("USER", ids),
    },
    customerUuid: { kind: "uuids", rest: { customer_uuid: "uuid" }, where: (ids) => inScope("CUSTOMER", ids) },
    projectUuid: { kind: "uuids", rest: { project_uuid: "uuid" }, where: (ids) => inScope("PROJECT", ids) },
    authMethod: {
      kind: "text",
      rest: "auth_method",
      description: "How the acting user signed in, where the event records it",
      where: (method) => inContext("auth_method", method),
    },
    patUuid: {
      kind: "text",
      rest: "pat_uuid",
      description: "The personal access token the change was made with, where the event records it",
      where: (uuid) => inContext("pat_uuid", uuid),
    },
  },
  orderings: { created: (direction) => ({ created: direction }) },
  defaultOrder: ["-created"],
  // Events written in one transaction share their time, and keep the order they were written in either way.
  tiebreak: (direction) => [{ id: direction }],
});
