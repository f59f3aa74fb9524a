import { allocationProviderScopes as providerScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { invalid } from "../platform/errors.ts";
import { maxLength } from "../platform/text.ts";
import { transact } from "../platform/database/transaction.ts";
import type { ResourceQuery } from "./service.ts";
import { describeResource, RESOURCE_CORE, recordResourceChange } from "./changes.ts";
import { visibleOne } from "../directory/lookup.ts";
import { providerResources } from "./visibility.ts";
import { findFirst, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

/**
 * What the site agent writes back about a resource's backend (Waldur's provider-resource actions), one row per
 * action: who may do it, the column it sets, and the `{"status": …}` message Waldur answers with.
 */
const BACKEND_UPDATES = {
  backendId: {
    permission: Permission.SET_RESOURCE_BACKEND_ID,
    column: "backendId",
    field: "backend_id",
    changed: "Resource backend_id has been changed.",
    unchanged: "Resource backend_id is not changed.",
  },
  backendMetadata: {
    permission: Permission.SET_RESOURCE_BACKEND_METADATA,
    column: "backendMetadata",
    field: "backend_metadata",
    changed: "The backend metadata is updated",
    unchanged: "The backend metadata is updated",
  },
  limits: {
    permission: Permission.SET_RESOURCE_LIMITS,
    column: "limits",
    field: "limits",
    changed: "The resource limits are updated",
    unchanged: "The resource limits are updated",
  },
} as const satisfies Record<
  string,
  { permission: Permission; column: keyof Prisma.ResourceUncheckedUpdateInput; field: string; changed: string; unchanged: string }
>;
export type BackendUpdate = keyof typeof BACKEND_UPDATES;

/** A resource in the viewer's provider view (404 otherwise), with the columns `select` names. */
export async function loadForProvider<S extends Prisma.ResourceSelect>(ctx: Context, uuid: string, select: S) {
  const visible = await providerResources(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "resource", { select, where: { AND: [{ id }, visible] } }));
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** With `query`, the answer carries the resource as it became (`resource`), read before the commit. */
async function updateBackend(ctx: Context, uuid: string, kind: BackendUpdate, value: unknown, query?: ResourceQuery) {
  const update = BACKEND_UPDATES[kind];
  const resource = await loadForProvider(ctx, uuid, { ...RESOURCE_CORE, backendId: true, backendMetadata: true, limits: true });
  await ctx.access.require(update.permission, providerScopes(resource));
  const previous = resource[update.column];
  if (sameJson(previous, value)) return { resourceId: resource.id, status: update.unchanged, changed: false };
  const changed = await transact(ctx, async (tx, outbox) => {
    await tx.resource.update({ where: { id: resource.id }, data: { [update.column]: value } });
    await recordResourceChange(ctx, tx, outbox, resource, {
      eventType: "marketplace_resource_updated",
      message: `The ${update.field} of resource ${describeResource(resource)} has been changed.`,
      previousState: resource.state,
      state: resource.state,
      context: { [`old_${update.field}`]: previous, [`new_${update.field}`]: value },
    });
    return query && findUniqueOrThrow(tx, "resource", { ...query, where: { id: resource.id } });
  });
  return { resourceId: resource.id, status: update.changed, changed: true, resource: changed };
}

export function setResourceBackendId(ctx: Context, uuid: string, backendId: string, query?: ResourceQuery) {
  return updateBackend(ctx, uuid, "backendId", maxLength("backendId", backendId, 255), query);
}

export function setResourceBackendMetadata(ctx: Context, uuid: string, metadata: unknown, query?: ResourceQuery) {
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw invalid({ backendMetadata: ["Expected a dictionary of items."] });
  }
  return updateBackend(ctx, uuid, "backendMetadata", metadata, query);
}

/** Limits are numbers per component type, as in orders. */
export function setResourceLimits(ctx: Context, uuid: string, limits: unknown, query?: ResourceQuery) {
  if (!limits || typeof limits !== "object" || Array.isArray(limits)) throw invalid({ limits: ["Expected a dictionary of items."] });
  const bad = Object.entries(limits).filter(([, v]) => typeof v !== "number" || !Number.isFinite(v) || v < 0);
  if (bad.length) throw invalid({ limits: [`Limits must be non-negative numbers: ${bad.map(([k]) => k).join(", ")}.`] });
  return updateBackend(ctx, uuid, "limits", limits, query);
}

/** Called on every agent loop, so it writes no audit event: the time itself is the record. */
export async function refreshResourceLastSync(ctx: Context, uuid: string, query?: ResourceQuery) {
  const resource = await loadForProvider(ctx, uuid, { id: true, offeringId: true, offering: { select: { customerId: true } } });
  await ctx.access.require(Permission.SET_RESOURCE_BACKEND_METADATA, providerScopes(resource));
  const updated = await ctx.db.resource.update({ ...(query ?? { select: { id: true } }), where: { id: resource.id }, data: { lastSync: ctx.now() } });
  return { resourceId: resource.id, status: "Last sync has been refreshed.", changed: true, resource: query && updated };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Waldur's DateField: `YYYY-MM-DD`, or null to clear. */
function endDateOf(value: string | null): Date | null {
  if (value === null) return null;
  const date = DATE.test(value) ? new Date(`${value}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw invalid({ endDate: ["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."] });
  }
  return date;
}

/** Waldur's set_end_date: the provider sets (or clears) the day after which the resource is to be terminated. */
export async function setResourceEndDate(ctx: Context, uuid: string, value: string | null, query?: ResourceQuery) {
  const endDate = endDateOf(value);
  const resource = await loadForProvider(ctx, uuid, { ...RESOURCE_CORE, endDate: true });
  await ctx.access.require(Permission.SET_RESOURCE_BACKEND_METADATA, providerScopes(resource));
  const day = (date: Date | null) => date?.toISOString().slice(0, 10) ?? null;
  if (day(resource.endDate) === value) return { resourceId: resource.id, status: "", changed: false };
  const changed = await transact(ctx, async (tx, outbox) => {
    await tx.resource.update({ where: { id: resource.id }, data: { endDate, endDateUpdatedAt: ctx.now() } });
    await recordResourceChange(ctx, tx, outbox, resource, {
      eventType: "marketplace_resource_update_end_date_succeeded",
      message: `The end date of resource ${describeResource(resource)} has been changed to ${value ?? "none"}.`,
      previousState: resource.state,
      state: resource.state,
      context: { old_end_date: day(resource.endDate), new_end_date: value },
    });
    return query && findUniqueOrThrow(tx, "resource", { ...query, where: { id: resource.id } });
  });
  return { resourceId: resource.id, status: "", changed: true, resource: changed };
}
