import { Access, type AskedOfRoles, type Viewer } from "../auth/access.ts";
import { type Grant, GrantsBatch } from "../auth/grants.ts";
import { type Context, memoTable } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { toHex } from "../platform/ids.ts";

/** The scope types whose role holders see an event (with the users it concerns); migration event_audience_tallies agrees. */
const AUDIENCE_SCOPE_TYPES = ["CUSTOMER", "PROJECT", "OFFERING"] as const;

export interface ViewerAudience {
  userId: string;
  /** The customers, projects and offerings on which the viewer holds a role. */
  roles: Array<{ scopeType: (typeof AUDIENCE_SCOPE_TYPES)[number]; ids: string[] }>;
}

/** Who the viewer is to events: null for staff and support, who see them all. */
export async function viewerAudience(ctx: Context): Promise<ViewerAudience | null> {
  if (ctx.access.readsAll) return null;
  const userId = ctx.requireViewer().id;
  const roles = await Promise.all(AUDIENCE_SCOPE_TYPES.map(async (scopeType) => ({ scopeType, ids: await ctx.access.scopeIds(scopeType) })));
  return { userId, roles };
}

/** The viewer's roles as the event audience tallies key them: `TYPE:uuid`. */
export const audienceKeys = (audience: ViewerAudience) => audience.roles.flatMap(({ scopeType, ids }) => ids.map((id) => `${scopeType}:${id}`));

/**
 * Events the viewer may see: staff and support all; others those that concern themselves, or a customer,
 * project or offering on which they hold a role.
 */
export async function visibleEvents(ctx: Context): Promise<Prisma.EventWhereInput> {
  return eventsVisibleTo(await viewerAudience(ctx));
}

export function eventsVisibleTo(audience: ViewerAudience | null): Prisma.EventWhereInput {
  if (!audience) return {};
  const roles = audience.roles.filter(({ ids }) => ids.length).map(({ scopeType, ids }) => ({ scopeType, scopeId: { in: ids } }));
  return { scopes: { some: { OR: [{ scopeType: "USER", scopeId: audience.userId }, ...roles] } } };
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

/** A context to decide in: `viewer` with `grants` (read fresh for the decision) and caches of its own. */
function decisionContext(ctx: Context, viewer: Viewer, grants: Promise<Grant[]>, asked?: AskedOfRoles[]): Context {
  return { ...ctx, viewer, access: new Access(ctx.db, viewer, ctx.now, () => grants, asked), requireViewer: () => viewer, memo: memoTable() };
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

/** A decision made by roles, with what it asked of them: it holds for any roles that answer those questions alike. */
interface DecisionByRoles {
  asked: AskedOfRoles[];
  decision: Promise<boolean>;
  state: "deciding" | "decided" | "failed";
}

const decisionsByRoles = new WeakMap<object, Map<string, DecisionByRoles[]>>();

const answersAlike = (decision: DecisionByRoles, grants: readonly Grant[]) =>
  decision.state === "decided" && decision.asked.every((asked) => JSON.stringify(asked.answer(grants)) === asked.answered);

/**
 * The decision for "nobody with these flags and `grants`", shared with every earlier decision for the payload whose
 * questions these grants answer alike. Decisions still under way are waited for once (viewers arrive together); one
 * that still does not fit is decided anew, without waiting for those started meanwhile.
 */
async function decidedByRoles(payload: object, flags: string, grants: readonly Grant[], decide: (asked: AskedOfRoles[]) => Promise<boolean>) {
  let perPayload = decisionsByRoles.get(payload);
  if (!perPayload) decisionsByRoles.set(payload, (perPayload = new Map()));
  const made = perPayload.get(flags) ?? [];
  perPayload.set(flags, made);
  const deciding = made.filter((d) => d.state === "deciding");
  let fitting = made.find((d) => answersAlike(d, grants));
  if (!fitting && deciding.length) {
    await Promise.allSettled(deciding.map((d) => d.decision));
    fitting = made.find((d) => answersAlike(d, grants));
  }
  if (fitting) return fitting.decision;
  const asked: AskedOfRoles[] = [];
  const entry: DecisionByRoles = { asked, decision: decide(asked), state: "deciding" };
  entry.decision.then(
    () => (entry.state = "decided"),
    () => (entry.state = "failed"),
  );
  made.push(entry);
  return entry.decision;
}

/**
 * Whether a subscriber may see a published change, with roles read fresh for it (so revoked access stops a
 * long-lived subscription), decided once per change and viewer for all of the viewer's subscriptions on this
 * instance. Most viewers see a change through their roles, not as themselves, so the change is first decided for
 * "nobody with these flags and roles", and that decision is shared by every viewer whose roles answer the questions
 * it asked alike (a project role of their own does not matter to a provider's record); only when it says no is the
 * change decided for the viewer in person. This is sound because every visibility rule uses the viewer's own id
 * only to widen what they see (their own records, events about them), never to narrow it, and reads roles only
 * through Access.
 */
export function subscriberMaySee<P extends object>(ctx: Context, kind: string, payload: P, decide: (fresh: Context, payload: P) => Promise<boolean>) {
  const viewer = ctx.viewer;
  if (!viewer) return decide(ctx, payload);
  const key = `${kind}:viewer:${viewer.id}`;
  // Staff and support see by their flags, which no role changes: their roles are not read.
  if (ctx.access.readsAll) return decidedOnce(payload, key, () => decide(ctx, payload));
  return decidedOnce(payload, key, async () => {
    const grants = grantsBatchOf(ctx).load(viewer.id);
    const nobody: Viewer = { ...viewer, id: NOBODY, username: "" };
    const flags = `${kind}:${viewer.isStaff}:${viewer.isSupport}`;
    const byRoles = decidedByRoles(payload, flags, await grants, (asked) => decide(decisionContext(ctx, nobody, grants, asked), payload));
    return (await byRoles) || decide(decisionContext(ctx, viewer, grants), payload);
  });
}
