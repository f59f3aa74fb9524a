import { Access, type Viewer } from "../auth/access.ts";
import { type Grant, GrantsBatch } from "../auth/grants.ts";
import { type Context, memoTable } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { toHex } from "../platform/ids.ts";

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

/**
 * An event's context as the viewer may see it: the address it came from is personal data of the user who caused it,
 * so only staff, support and that user see `ip_address`; others (a colleague on the same customer, the consumer of a
 * provider's change) get null.
 */
export function contextShownTo(ctx: Context, context: Prisma.JsonValue): Prisma.JsonValue {
  if (!context || typeof context !== "object" || Array.isArray(context) || context.ip_address == null) return context;
  if (ctx.access.readsAll || (ctx.viewer && context.user_uuid === toHex(ctx.viewer.id))) return context;
  return { ...context, ip_address: null };
}

const grantBatches = new WeakMap<object, GrantsBatch>();

function grantsBatchOf(ctx: Context): GrantsBatch {
  let batch = grantBatches.get(ctx.db);
  if (!batch) grantBatches.set(ctx.db, (batch = new GrantsBatch(ctx.db, ctx.now)));
  return batch;
}

/** Nobody's id: a viewer with someone's flags and roles, but no records of their own. */
const NOBODY = "00000000-0000-0000-0000-000000000000";

const rolesKey = (viewer: Viewer, grants: Grant[]) =>
  `${viewer.isStaff}:${viewer.isSupport}:${grants.map((g) => `${g.role}@${g.scopeType}:${g.scopeId}`).sort().join(",")}`;

/** A context to decide in: `viewer` with `grants` (read fresh for the decision) and caches of its own. */
function decisionContext(ctx: Context, viewer: Viewer, grants: Promise<Grant[]>): Context {
  return { ...ctx, viewer, access: new Access(ctx.db, viewer, ctx.now, () => grants), requireViewer: () => viewer, memo: memoTable() };
}

/** Decisions per published payload (the same object reaches every local subscriber of its topic) and key. */
const decisions = new WeakMap<object, Map<string, Promise<boolean>>>();

function decidedOnce(payload: object, key: string, decide: () => Promise<boolean>): Promise<boolean> {
  let perPayload = decisions.get(payload);
  if (!perPayload) decisions.set(payload, (perPayload = new Map()));
  let decision = perPayload.get(key);
  if (!decision) perPayload.set(key, (decision = decide()));
  return decision;
}

/**
 * Whether a subscriber may see a published change, with roles read fresh for it (so revoked access stops a
 * long-lived subscription), decided once per change and viewer for all of the viewer's subscriptions on this
 * instance. Most viewers see a change through their roles, not as themselves, so the change is first decided for
 * "nobody with these flags and roles" — once per distinct set of roles, shared by every viewer holding it — and only
 * when that says no, for the viewer in person. This is sound because every visibility rule uses the viewer's own id
 * only to widen what they see (their own records, events about them), never to narrow it.
 */
export function subscriberMaySee<P extends object>(ctx: Context, kind: string, payload: P, decide: (fresh: Context, payload: P) => Promise<boolean>) {
  const viewer = ctx.viewer;
  if (!viewer) return decide(ctx, payload);
  return decidedOnce(payload, `${kind}:viewer:${viewer.id}`, async () => {
    const grants = grantsBatchOf(ctx).load(viewer.id);
    const nobody: Viewer = { ...viewer, id: NOBODY, username: "" };
    const byRoles = decidedOnce(payload, `${kind}:roles:${rolesKey(viewer, await grants)}`, () => decide(decisionContext(ctx, nobody, grants), payload));
    return (await byRoles) || decide(decisionContext(ctx, viewer, grants), payload);
  });
}
