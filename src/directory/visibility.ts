import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { batchLoader } from "../platform/database/batch.ts";
import { findMany } from "../platform/reads/sql/find.ts";

/** Customers on which the viewer holds a role, or in one of whose projects or offerings they do. */
export async function visibleCustomers(ctx: Context): Promise<Prisma.CustomerWhereInput> {
  if (ctx.access.readsAll) return {};
  ctx.requireViewer();
  const [customers, projects, offerings] = await Promise.all([
    ctx.access.scopeIds("CUSTOMER"),
    ctx.access.scopeIds("PROJECT"),
    ctx.access.scopeIds("OFFERING"),
  ]);
  return {
    OR: [
      { id: { in: customers } },
      { projects: { some: { id: { in: projects } } } },
      { offerings: { some: { id: { in: offerings } } } },
    ],
  };
}

/** Projects on which the viewer holds a role, or whose customer they hold a role on. */
export async function visibleProjects(ctx: Context): Promise<Prisma.ProjectWhereInput> {
  if (ctx.access.readsAll) return {};
  ctx.requireViewer();
  const [customers, projects] = await Promise.all([ctx.access.scopeIds("CUSTOMER"), ctx.access.scopeIds("PROJECT")]);
  return { OR: [{ id: { in: projects } }, { customerId: { in: customers } }] };
}

/** The provider's own offerings (customer or offering roles) and every active offering of the catalogue. */
export async function visibleOfferings(ctx: Context): Promise<Prisma.OfferingWhereInput> {
  if (ctx.access.readsAll) return {};
  ctx.requireViewer();
  const [customers, offerings] = await Promise.all([ctx.access.scopeIds("CUSTOMER"), ctx.access.scopeIds("OFFERING")]);
  return { OR: [{ state: "ACTIVE" }, { customerId: { in: customers } }, { id: { in: offerings } }] };
}

/** Users see themselves and the people they share a customer or project with. */
export async function visibleUsers(ctx: Context): Promise<Prisma.UserWhereInput> {
  if (ctx.access.readsAll) return {};
  const viewer = ctx.requireViewer();
  const [customers, projects] = await Promise.all([ctx.access.scopeIds("CUSTOMER"), ctx.access.scopeIds("PROJECT")]);
  const sharedScopes = [...customers, ...projects];
  return {
    OR: [
      { id: viewer.id },
      ...(sharedScopes.length ? [{ roles: { some: { isActive: true, scopeId: { in: sharedScopes } } } }] : []),
    ],
  };
}

export type DirectoryKind = "customer" | "project" | "user";

/** Ids among `ids` that the viewer could GET over REST (the same rules as the lists above). */
const VISIBLE_AMONG: Record<DirectoryKind, (ctx: Context, ids: string[]) => Promise<Array<{ id: string }>>> = {
  customer: async (ctx, ids) =>
    findMany(ctx.db, "customer", { where: { AND: [{ id: { in: ids } }, await visibleCustomers(ctx)] }, select: { id: true } }),
  project: async (ctx, ids) =>
    findMany(ctx.db, "project", { where: { AND: [{ id: { in: ids } }, await visibleProjects(ctx)] }, select: { id: true } }),
  user: async (ctx, ids) => findMany(ctx.db, "user", { where: { AND: [{ id: { in: ids } }, await visibleUsers(ctx)] }, select: { id: true } }),
};

/** Whether the viewer could GET this customer, project or user, when that needs no lookup. */
function seenWithoutLookup(ctx: Context, kind: DirectoryKind, id: string): boolean | undefined {
  if (ctx.access.readsAll || (kind === "user" && ctx.viewer?.id === id)) return true;
  return ctx.viewer ? undefined : false;
}

/** Whether the viewer could GET this customer, project or user over REST; one query per kind and batch of a request. */
export function canSee(ctx: Context, kind: DirectoryKind, id: string): Promise<boolean> {
  const known = seenWithoutLookup(ctx, kind, id);
  if (known !== undefined) return Promise.resolve(known);
  const load = ctx.memo(`visible:${kind}`, () =>
    batchLoader<string, true>(async (ids) => new Map((await VISIBLE_AMONG[kind](ctx, ids)).map((row) => [row.id, true])), (key) => key),
  );
  return load(id).then(Boolean);
}

/** Rows of customers, projects and users as a record the viewer may see gave them, with the fields it shows of them. */
const shownThroughRecords = new WeakMap<object, ReadonlySet<string>>();

/**
 * A customer, project or user row reached from a record that shows these of its fields to whoever may see the record, as
 * Waldur's serializer of that record does (an offering user shows its provider the user's name and email; an order,
 * its project's description): those fields of this row are given though the viewer could not GET the object.
 */
export function showThroughRecord<Row extends object>(row: Row, fields: ReadonlySet<string>): Row {
  const shown = shownThroughRecords.get(row);
  shownThroughRecords.set(row, shown ? new Set([...shown, ...fields]) : fields);
  return row;
}

/**
 * A field of a customer, project or user reached by nesting (an offering's customer, an order's project, an offering
 * user's user): its value when the viewer could GET the object over REST, or the record it was reached from shows
 * this field of it (`showThroughRecord`); null otherwise. Answered at once when no lookup is needed (staff, oneself,
 * an anonymous viewer), so most fields of a page resolve without a promise each.
 */
export function ifVisible<T>(ctx: Context, kind: DirectoryKind, row: { id: string }, value: T, field?: string): T | null | Promise<T | null> {
  if (field !== undefined && shownThroughRecords.get(row)?.has(field)) return value;
  const known = seenWithoutLookup(ctx, kind, row.id);
  if (known !== undefined) return known ? value : null;
  return canSee(ctx, kind, row.id).then((visible) => (visible ? value : null));
}
