import type { MiddlewareHandler } from "hono";
import { type WriteGate, type WriteScope, writesStopped } from "../platform/database/write-gate.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** The request's scope of the server's writes (its context's `writes`), set by `stoppableRequests`. */
    writeScope: WriteScope;
  }
}

/**
 * Requests that the end of a shutdown's grace period can stop. Each request gets a scope of the server's writes
 * (its context's `writes`). `stop()` closes the gate — every write that has not sent its commit is stopped, none may
 * begin after — and answers at once, with a 503, each request in flight that began no write: nothing of it can be
 * applied any more. A request that began one answers by itself with what the database did: a 503 when its write was
 * stopped, its own answer when its commit had gone out (or its cancelled statement finished first).
 */
export function stoppableRequests(gate: WriteGate) {
  const inFlight = new Map<WriteScope, () => void>();

  const middleware: MiddlewareHandler = async (c, next) => {
    const scope = gate.scope();
    c.set("writeScope", scope);
    const stopped = new Promise<true>((resolve) => inFlight.set(scope, () => resolve(true)));
    try {
      if (await Promise.race([next().then(() => false), stopped])) return c.json({ detail: writesStopped().message }, 503);
    } finally {
      inFlight.delete(scope);
    }
  };

  return {
    middleware,
    stop(): void {
      gate.close();
      for (const [scope, answer] of inFlight) if (!scope.began) answer();
    },
  };
}
