import { randomUUID } from "node:crypto";
import type { EventSpec } from "./spec.ts";
import type { Context } from "../context.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { toHex } from "../platform/ids.ts";
import type { Outbox, Tx } from "../platform/database/transaction.ts";
import { runWrite } from "../platform/database/lone-statement.ts";
import type { Topics } from "../platform/messaging/topics.ts";

export type { ChangeTopic, EventSpec, RecordedChange } from "./spec.ts";

/**
 * The statement that writes an audit event with its scopes (a data-modifying CTE); after `change` (a data-modifying
 * statement RETURNING what it changed), only if that changed a row, in the same statement.
 */
function eventStatement(ctx: Context, spec: EventSpec, change?: Prisma.Sql) {
  const actor = ctx.viewer;
  const scopes = actor ? [...spec.scopes, { type: "USER" as const, id: actor.id }] : spec.scopes;
  const unique = [...new Map(scopes.map((s) => [`${s.type}:${s.id}`, s])).values()];
  const context = {
    ...spec.context,
    ...(actor ? { user_uuid: toHex(actor.id), user_username: actor.username } : {}),
    ip_address: ctx.ipAddress,
  };
  const published = spec.change ? JSON.stringify(spec.change) : null;
  return Prisma.sql`
    WITH ${change ? Prisma.sql`changed AS (${change}),` : Prisma.empty} event AS (
      INSERT INTO events (uuid, created, event_type, message, context, change)
      SELECT ${randomUUID()}::uuid, ${ctx.now()}, ${spec.type}, ${spec.message}, ${JSON.stringify(context)}::jsonb, ${published}::jsonb
      ${change ? Prisma.sql`WHERE EXISTS (SELECT 1 FROM changed)` : Prisma.empty}
      RETURNING id
    ), scopes AS (
      INSERT INTO event_scopes (event_id, scope_type, scope_id)
      SELECT event.id, scope.type::"EventScopeType", scope.id::uuid
      FROM event, unnest(${unique.map((s) => s.type)}::text[], ${unique.map((s) => s.id)}::text[]) AS scope(type, id)
    )
    SELECT (SELECT id FROM event) AS id, ${change ? Prisma.sql`(SELECT count(*) FROM changed)::int` : Prisma.sql`1`} AS changed`;
}

/** Follows the event written and queues its notification (subscribers hear of it after commit). */
async function followed(ctx: Context, tx: Tx, outbox: Outbox<Topics>, spec: EventSpec, id: number) {
  await ctx.followEvent?.follow(ctx, tx, outbox, spec);
  outbox.publish("eventCreated", { eventId: id, eventType: spec.type });
  return { id, eventType: spec.type };
}

/** Writes an audit event with its scopes inside the caller's transaction, in one statement. */
export async function recordEvent(ctx: Context, tx: Tx, outbox: Outbox<Topics>, spec: EventSpec) {
  const [event] = await tx.$queryRaw<Array<{ id: number }>>(eventStatement(ctx, spec));
  return followed(ctx, tx, outbox, spec, event.id);
}

/**
 * Writes `change` and, only if it changed a row, its audit event with its scopes, in one statement: atomic by itself,
 * so it may run outside a transaction (see TransactOptions.oneStatement) when nothing follows the event in one
 * (`changeCommitsAlone`). Answers how many rows `change` changed, and the event written.
 */
export async function recordChange(ctx: Context, db: Tx, outbox: Outbox<Topics>, change: Prisma.Sql, spec: EventSpec) {
  const [{ id, changed }] = await runWrite<{ id: number | null; changed: number }>(db, eventStatement(ctx, spec, change), ctx.writes);
  return { changed, event: id === null ? null : await followed(ctx, db, outbox, spec, id) };
}

/** Whether a change recorded with an event of this type may commit alone: nothing writes after it in its transaction. */
export const changeCommitsAlone = (ctx: Context, type: EventSpec["type"]) => !ctx.followEvent?.writesFor(type);

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
