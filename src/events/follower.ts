import type { Context } from "../context.ts";
import type { Outbox, Tx } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import type { EventSpec } from "./spec.ts";

/**
 * Called with every recorded event, inside its transaction: what must commit with it (the site agents' messages). A
 * change whose event it writes nothing for may commit alone, in one statement; then `tx` is the database itself.
 */
export interface EventFollower {
  follow(ctx: Context, tx: Tx, outbox: Outbox<Topics>, event: EventSpec): Promise<void>;
  /** Whether following an event of this type writes (then its change cannot commit alone, in one statement). */
  writesFor(type: EventSpec["type"]): boolean;
}

declare module "../context.ts" {
  interface AppDeps {
    /** What follows every recorded event in its transaction: cached grants emptied after a change of roles, and the broker outbox when a broker is configured. */
    followEvent: EventFollower | undefined;
  }
}
