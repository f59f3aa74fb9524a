import type { EventType } from "./types.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Outbox, Tx } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import { type EventSpec, type RecordedChange, recordChange, recordEvent } from "./record.ts";

/** A change of a record's state (`S` includes null where the record can be deleted), as its domain reports it. */
export interface StateChange<S extends string | null> {
  eventType: EventType;
  message: string;
  state: S;
  previousState: NonNullable<S> | null;
  context?: Record<string, unknown>;
}

/** What differs from one kind of record to another in recording its changes. */
export interface ChangeKind<R, S extends string | null> {
  /** Waldur's label of a state. */
  label: (state: NonNullable<S>) => string;
  /** What every event about the record names, before its state. */
  context: (record: R) => Record<string, unknown>;
  /** The feeds every event about the record belongs to. */
  scopes: (record: R) => EventSpec["scopes"];
  /** The state an event names once the record is deleted; without it, such an event names none. */
  stateOnceGone?: (record: R) => NonNullable<S>;
  /** The notification a change is published as (without its event's id). */
  notification: (record: R, change: StateChange<S>) => RecordedChange;
}

/** `old_state` / `new_state` labels for an event's context, when the change moved the state. */
function stateChangeContext<S extends string>(previous: S | null, next: S | null, label: (state: S) => string) {
  return previous && next && previous !== next ? { old_state: label(previous), new_state: label(next) } : {};
}

function changeEvent<R, S extends string | null>(kind: ChangeKind<R, S>, record: R, change: StateChange<S>): EventSpec {
  const shown = change.state ?? kind.stateOnceGone?.(record) ?? null;
  return {
    type: change.eventType,
    message: change.message,
    context: {
      ...kind.context(record),
      ...(shown ? { state: kind.label(shown) } : {}),
      ...stateChangeContext(change.previousState, change.state, kind.label),
      ...change.context,
    },
    scopes: kind.scopes(record),
    change: kind.notification(record, change),
  };
}

/** Publishes the change an event was written with, with the event's id, after commit. */
function publishChange(outbox: Outbox<Topics>, { change }: EventSpec, eventId: number) {
  if (change) outbox.publish(change.topic, { ...change.payload, eventId });
}

/**
 * Records the changes of one kind of record: each with its audit event (context, scopes, and the change it
 * carries for subscribers that resume), written in the caller's transaction, and its notification, queued to be
 * published after commit.
 */
export function changeRecorder<R, S extends string | null>(kind: ChangeKind<R, S>) {
  return {
    /** Writes the audit event of a change in the caller's transaction and queues its notification. */
    async record(ctx: Context, tx: Tx, outbox: Outbox<Topics>, record: R, change: StateChange<S>) {
      const spec = changeEvent(kind, record, change);
      const event = await recordEvent(ctx, tx, outbox, spec);
      publishChange(outbox, spec, event.id);
      return event;
    },
    /**
     * Writes `update` (a statement on the record, RETURNING what it changed) and, if it changed the record, the
     * change's audit event, in one statement (see recordChange); answers how many rows it changed.
     */
    async recordUpdate(ctx: Context, db: Tx, outbox: Outbox<Topics>, record: R, update: Prisma.Sql, change: StateChange<S>) {
      const spec = changeEvent(kind, record, change);
      const { changed, event } = await recordChange(ctx, db, outbox, update, spec);
      if (event) publishChange(outbox, spec, event.id);
      return { count: changed };
    },
  };
}
