import type { Context } from "../context.ts";
import type { EventScopeType } from "../generated/prisma/client.ts";
import { builder, nodeOrNull } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { toHex } from "../platform/ids.ts";
import type { EventCreatedPayload } from "./event-created.ts";
import { EVENT_CONTRACT } from "./contract.ts";
import { EVENT_TYPES, knownEventType } from "./types.ts";
import * as service from "./service.ts";
import { eventsCreatedAfter, followedTopic } from "./resume.ts";
import { contextShownTo, subscriberMaySee, visibleEvents } from "./visibility.ts";
import { visibleIntNode } from "../graphql/nodes.ts";
import { count, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export const EventTypeEnum = builder.enumType("EventType", {
  description: "Every event type the service writes (Waldur's names)",
  values: EVENT_TYPES,
});

export const EventRef = builder.prismaNode("Event", {
  ...visibleIntNode(service.getEvent),
  fields: (t) => ({
    eventId: t.exposeInt("id", { description: "The integer id Waldur shows; `after` of the event subscriptions takes it" }),
    uuid: t.string({ resolve: (e) => toHex(e.uuid) }),
    created: t.expose("created", { type: "DateTime" }),
    eventType: t.exposeString("eventType", { description: "Waldur's name of the event type, as stored (an open set across versions)" }),
    type: t.field({
      type: EventTypeEnum,
      nullable: true,
      description: "The event type as an enum; null for a type this version does not write (an older or newer instance's)",
      resolve: (e) => knownEventType(e.eventType),
    }),
    message: t.exposeString("message"),
    subject: t.field({
      type: builder.nodeInterfaceRef(),
      nullable: true,
      description: "The object the event is about (its most specific scope); null once deleted or when the viewer may not see it",
      select: { scopes: { select: { scopeType: true, scopeId: true } } },
      resolve: (e, _a, ctx, info) => {
        const subject = subjectOf(e.scopes);
        return subject ? nodeOrNull(ctx, info, subject) : null;
      },
    }),
    context: t.field({
      type: "JSON",
      description: "ip_address is null unless the viewer is staff, support or the user who caused the event",
      resolve: (e, _a, ctx) => contextShownTo(ctx, e.context),
    }),
  }),
});

/** Scope types from the most specific, with the object type that shows each. */
const SUBJECT_TYPES: ReadonlyArray<[EventScopeType, string]> = [
  ["OFFERING_USER", "OfferingUser"],
  ["ORDER", "Order"],
  ["RESOURCE", "Resource"],
  ["MAINTENANCE", "MaintenanceAnnouncement"],
  ["TERMS_OF_SERVICE", "OfferingTermsOfService"],
  ["SERVICE_PROVIDER", "ServiceProvider"],
  ["OFFERING", "Offering"],
  ["PROJECT", "Project"],
  ["CUSTOMER", "Customer"],
  ["USER", "User"],
];

function subjectOf(scopes: ReadonlyArray<{ scopeType: EventScopeType; scopeId: string }>) {
  for (const [scopeType, typename] of SUBJECT_TYPES) {
    const scope = scopes.find((s) => s.scopeType === scopeType);
    if (scope) return { typename, id: scope.scopeId };
  }
  return undefined;
}

const { Filter: EventFilterInput } = collectionFields({
  node: EventRef, contract: EVENT_CONTRACT,
  list: { oneOrder: true, load: service.listEvents },
  record: { description: "One event by its integer id or its uuid", key: "id", load: service.getEvent },
});

export async function canSeeEvent(ctx: Context, id: number) {
  return (await count(ctx.db, "event", { AND: [{ id }, await visibleEvents(ctx)] })) > 0;
}

builder.queryFields((t) => ({
  eventCount: t.int({
    args: { filter: t.arg({ type: EventFilterInput }) },
    resolve: (_root, args, ctx) => service.countEvents(ctx, args.filter),
  }),
}));

builder.subscriptionFields((t) => ({
  eventCreated: t.prismaField({
    type: "Event",
    description: "Audit events the subscriber may see, after the change they record is committed",
    args: {
      eventType: t.arg({ type: [EventTypeEnum] }),
      after: t.arg.int({ description: "Resume: first replay the events after this `eventId` (the last one received), then follow live" }),
    },
    subscribe: (_root, args, ctx) => {
      ctx.requireViewer();
      const accept = (p: EventCreatedPayload) =>
        (!args.eventType?.length || args.eventType.some((type) => type === p.eventType)) && subscriberMaySee(ctx, "event", p, (fresh) => canSeeEvent(fresh, p.eventId));
      const where = args.eventType?.length ? { eventType: { in: args.eventType } } : {};
      return followedTopic(ctx, "eventCreated", (from, take) => eventsCreatedAfter(ctx, where, from, take), args.after, accept);
    },
    resolve: (query, payload: EventCreatedPayload, _args, ctx) =>
      findUniqueOrThrow(ctx.db, "event", { ...query, where: { id: payload.eventId } }),
  }),
}));
