import { randomUUID } from "node:crypto";
import type { EventSpec } from "./spec.ts";
import type { Context } from "../context.ts";
import { toHex } from "../platform/ids.ts";
import type { Outbox, Tx } from "../platform/transaction.ts";
import type { Topics } from "../topics.ts";

export type { ChangeTopic, EventSpec, RecordedChange } from "./spec.ts";

/**
 * Writes an audit event with its scopes inside the caller's transaction, in one statement (a data-modifying CTE);
 * subscribers hear of it after commit.
 */
export async function recordEvent(ctx: Context, tx: Tx, outbox: Outbox<Topics>, spec: EventSpec) {
  const actor = ctx.viewer;
  const scopes = actor ? [...spec.scopes, { type: "USER" as const, id: actor.id }] : spec.scopes;
  const unique = [...new Map(scopes.map((s) => [`${s.type}:${s.id}`, s])).values()];
  const context = {
    ...spec.context,
    ...(actor ? { user_uuid: toHex(actor.id), user_username: actor.username } : {}),
    ip_address: ctx.ipAddress,
  };
  const change = spec.change ? JSON.stringify(spec.change) : null;
  const [event] = await tx.$queryRaw<Array<{ id: number }>>`
    WITH event AS (
      INSERT INTO events (uuid, created, event_type, message, context, change)
      VALUES (${randomUUID()}::uuid, ${ctx.now()}, ${spec.type}, ${spec.message}, ${JSON.stringify(context)}::jsonb, ${change}::jsonb)
      RETURNING id
    ), scopes AS (
      INSERT INTO event_scopes (event_id, scope_type, scope_id)
      SELECT event.id, scope.type::"EventScopeType", scope.id::uuid
      FROM event, unnest(${unique.map((s) => s.type)}::text[], ${unique.map((s) => s.id)}::text[]) AS scope(type, id)
    )
    SELECT id FROM event`;
  await ctx.followEvent?.(ctx, tx, outbox, spec);
  outbox.publish("eventCreated", { eventId: event.id, eventType: spec.type });
  return { id: event.id, eventType: spec.type };
}

/** `old_state` / `new_state` labels for an event's context, when the change moved the state. */
export function stateChangeContext<S extends string>(previous: S | null | undefined, next: S | null | undefined, label: (state: S) => string) {
  return previous && next && previous !== next ? { old_state: label(previous), new_state: label(next) } : {};
}

interface Allocation {
  offeringId: string;
  projectId: string;
  offering: { name: string; customerId: string };
  project: { name: string; customerId: string };
}

/** What every event about an order or resource names, and the feeds it belongs to: offering, project, both customers. */
export function allocationEventParts(a: Allocation) {
  return {
    context: {
      offering_uuid: toHex(a.offeringId),
      offering_name: a.offering.name,
      project_uuid: toHex(a.projectId),
      project_name: a.project.name,
      customer_uuid: toHex(a.project.customerId),
      provider_uuid: toHex(a.offering.customerId),
    },
    scopes: [
      { type: "OFFERING" as const, id: a.offeringId },
      { type: "PROJECT" as const, id: a.projectId },
      { type: "CUSTOMER" as const, id: a.project.customerId },
      { type: "CUSTOMER" as const, id: a.offering.customerId },
    ],
  };
}
