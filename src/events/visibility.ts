import { Access } from "../auth/access.ts";
import { GrantsBatch } from "../auth/grants.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/**
 * Events the viewer may see: staff and support all; others those that concern themselves, or a customer,
 * project or offering on which they hold a role.
 */
export async function visibleEvents(ctx: Context): Promise<Prisma.EventWhereInput> {
  if (ctx.access.readsAll) return {};
  const viewer = ctx.requireViewer();
  const [customers, projects, offerings] = await Promise.all([
    ctx.access.scopeIds("CUSTOMER"),
    ctx.access.scopeIds("PROJECT"),
    ctx.access.scopeIds("OFFERING"),
  ]);
  return {
    scopes: {
      some: {
        OR: [
          { scopeType: "USER", scopeId: viewer.id },
          ...(customers.length ? [{ scopeType: "CUSTOMER" as const, scopeId: { in: customers } }] : []),
          ...(projects.length ? [{ scopeType: "PROJECT" as const, scopeId: { in: projects } }] : []),
          ...(offerings.length ? [{ scopeType: "OFFERING" as const, scopeId: { in: offerings } }] : []),
        ],
      },
    },
  };
}

const grantBatches = new WeakMap<object, GrantsBatch>();

function grantsBatchOf(ctx: Context): GrantsBatch {
  let batch = grantBatches.get(ctx.db);
  if (!batch) grantBatches.set(ctx.db, (batch = new GrantsBatch(ctx.db, ctx.now)));
  return batch;
}

/**
 * A long-lived connection re-reads the subscriber's roles for each delivery, so revoked access stops it; the roles of
 * all subscribers deciding at once are read together.
 */
export const freshViewerContext = (ctx: Context): Context => {
  const batch = grantsBatchOf(ctx);
  return { ...ctx, access: new Access(ctx.db, ctx.viewer, ctx.now, (userId) => batch.load(userId)) };
};

/** Decisions per published payload (the same object reaches every local subscriber of its topic) and viewer. */
const decisions = new WeakMap<object, Map<string, Promise<boolean>>>();

/**
 * Whether a subscriber may see a published change, decided once per change and viewer with freshly read roles:
 * every subscription of one user (on any connection of this instance) shares the decision instead of asking
 * the database again.
 */
export function subscriberMaySee<P extends object>(ctx: Context, kind: string, payload: P, decide: (fresh: Context, payload: P) => Promise<boolean>) {
  const perViewer = decisions.get(payload) ?? new Map<string, Promise<boolean>>();
  decisions.set(payload, perViewer);
  const key = `${kind}:${ctx.viewer?.id ?? "anonymous"}`;
  let decision = perViewer.get(key);
  if (!decision) {
    decision = decide(freshViewerContext(ctx), payload);
    perViewer.set(key, decision);
  }
  return decision;
}
