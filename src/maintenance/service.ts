import type { Context } from "../context.ts";
import type { MaintenanceAnnouncement, MaintenanceState, Prisma } from "../generated/prisma/client.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import type { MaintenanceQuery } from "./listing.ts";
import { missingObject, notFound, wrongState } from "../platform/errors.ts";
import { idSet, parseUuid, toHex } from "../platform/ids.ts";
import { canTransition, swapFromObserved, type TransitionRule } from "../platform/state-machine.ts";
import { type Tx, transact } from "../platform/database/transaction.ts";
import { ANNOUNCEMENT_SOURCE, syncAnnouncement } from "./announcement-sync.ts";
import { MAINTENANCE_CONTRACT } from "./contract.ts";
import { MAINTENANCE_CORE, type MaintenanceCore, recordMaintenanceChange } from "./changes.ts";
import { maintenanceStateLabel } from "./enums.ts";
import { type MaintenanceInput, scheduleError, validMaintenanceInput } from "./input.ts";
import { listAnnouncements, type MaintenanceListArgs } from "./listing.ts";
import { type MaintenanceAction, maintenanceRule, MaintenanceTransitionError } from "./transitions.ts";
import { canManageProvider, requireManager, visibleMaintenance } from "./visibility.ts";
import { findFirst, findMany, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

/** Fields whose change an update records. */
const TRACKED_FIELDS = [
  "name",
  "message",
  "internalNotes",
  "maintenanceType",
  "externalReferenceUrl",
  "scheduledStart",
  "scheduledEnd",
  "serviceProviderId",
] as const;
type TrackedField = (typeof TRACKED_FIELDS)[number];

/** Fields whose change the system announcement follows (Waldur's _has_content_changes). */
const ANNOUNCED_FIELDS = ["name", "message", "maintenanceType", "scheduledStart", "scheduledEnd"] as const;
/** While the system announcement exists and is kept in step. */
const ANNOUNCED_STATES: readonly MaintenanceState[] = ["SCHEDULED", "IN_PROGRESS"];

const EDITABLE = { ...MAINTENANCE_CORE, ...ANNOUNCEMENT_SOURCE, internalNotes: true, externalReferenceUrl: true } as const;
type Editable = Prisma.MaintenanceAnnouncementGetPayload<{ select: typeof EDITABLE }>;

export async function listMaintenance(ctx: Context, args: MaintenanceListArgs, query: MaintenanceQuery = {}): Promise<Connection<MaintenanceAnnouncement>> {
  return listAnnouncements(ctx, await visibleMaintenance(ctx), MAINTENANCE_CONTRACT, args, query);
}

/** The announcement `uuid`, read by `find` among those the viewer may see (404 otherwise). */
async function findVisible<T>(ctx: Context, uuid: string, find: (where: Prisma.MaintenanceAnnouncementWhereInput) => Promise<T | null>) {
  const visible = await visibleMaintenance(ctx);
  const id = parseUuid(uuid);
  const row = id ? await find({ AND: [{ id }, visible] }) : null;
  if (!row) throw notFound();
  return row;
}

export async function getMaintenance(ctx: Context, uuid: string, query: MaintenanceQuery = {}) {
  return findVisible(ctx, uuid, (where) => findFirst(ctx.db, "maintenanceAnnouncement", { ...query, where }));
}

/** Which of `ids` the viewer may see as maintenance announcements (getMaintenance's rule). */
export const visibleMaintenanceIds = async (ctx: Context, ids: string[]) =>
  idSet(await findMany(ctx.db, "maintenanceAnnouncement", { where: { AND: [{ id: { in: ids } }, await visibleMaintenance(ctx)] }, select: { id: true } }));

/** The announcement the viewer may change: 404 when they cannot see it, 403 when they only read (support). */
export async function loadManageable(ctx: Context, uuid: string): Promise<Editable> {
  const m = await findVisible(ctx, uuid, (where) => findFirst(ctx.db, "maintenanceAnnouncement", { select: EDITABLE, where }));
  await requireManager(ctx, m.serviceProvider.customerId);
  return m;
}

/** A service provider named in a request body; one the caller may not manage does not exist for them (400). */
async function manageableProvider(ctx: Context, serviceProviderId: string) {
  const provider = await findUnique(ctx.db, "serviceProvider", { where: { id: serviceProviderId }, select: { id: true, customerId: true } });
  if (!provider || !(await canManageProvider(ctx, provider.customerId))) {
    throw missingObject("serviceProviderUuid");
  }
  return provider;
}

/** The answer, read with the change's own `tx` as its last step: a read after the commit could fail on a lost connection. */
const reload = (tx: Tx, id: string, query: MaintenanceQuery) => findUniqueOrThrow(tx, "maintenanceAnnouncement", { ...query, where: { id } });

const coreOf = (m: Editable): MaintenanceCore => ({
  id: m.id,
  name: m.name,
  state: m.state,
  serviceProviderId: m.serviceProviderId,
  serviceProvider: { customerId: m.serviceProvider.customerId },
});

export async function createMaintenance(ctx: Context, input: MaintenanceInput, query: MaintenanceQuery = {}) {
  ctx.requireViewer();
  const { data, serviceProviderId } = validMaintenanceInput(input, true);
  const provider = await manageableProvider(ctx, serviceProviderId!);
  if (input.scheduledEnd! <= input.scheduledStart!) throw scheduleError();
  return transact(ctx, async (tx, outbox) => {
    const created = (await tx.maintenanceAnnouncement.create({
      data: { ...data, serviceProviderId: provider.id, createdById: ctx.viewer!.id, created: ctx.now() } as Prisma.MaintenanceAnnouncementUncheckedCreateInput,
      select: EDITABLE,
    })) as Editable;
    await recordMaintenanceChange(ctx, tx, outbox, coreOf(created), {
      eventType: "maintenance_announcement_created",
      message: `Maintenance announcement ${created.name} has been created.`,
      previousState: null,
      state: created.state,
    });
    return reload(tx, created.id, query);
  });
}

const display = (value: unknown) => (value instanceof Date ? value.toISOString() : JSON.stringify(value));

const changedFields = (before: Editable, after: Editable) => TRACKED_FIELDS.filter((key) => display(before[key]) !== display(after[key]));

/** The event names a changed field as Waldur's model does: `scheduledEnd` → `scheduled_end`, `serviceProviderId` → `service_provider`. */
const modelFieldName = (key: TrackedField) => key.replace(/Id$/, "").replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** PUT and PATCH: absent fields stay; the system announcement follows text, type and schedule. */
export async function updateMaintenance(ctx: Context, uuid: string, input: MaintenanceInput, query: MaintenanceQuery = {}) {
  const before = await loadManageable(ctx, uuid);
  const { data, serviceProviderId } = validMaintenanceInput(input, false);
  if (serviceProviderId && serviceProviderId !== before.serviceProviderId) await manageableProvider(ctx, serviceProviderId);
  return transact(ctx, async (tx, outbox) => {
    const after = (await tx.maintenanceAnnouncement.update({
      where: { id: before.id },
      data: { ...data, ...(serviceProviderId ? { serviceProviderId } : {}) },
      select: EDITABLE,
    })) as Editable;
    if (after.scheduledEnd <= after.scheduledStart) throw scheduleError();
    const changed = changedFields(before, after);
    if (!changed.length) return reload(tx, before.id, query);
    if (ANNOUNCED_STATES.includes(after.state) && changed.some((key) => (ANNOUNCED_FIELDS as readonly string[]).includes(key))) {
      await syncAnnouncement(tx, "refresh", after);
    }
    const changes = changed.map((key) => `${modelFieldName(key)}: ${display(before[key])} -> ${display(after[key])}`);
    await recordMaintenanceChange(ctx, tx, outbox, coreOf(after), {
      eventType: "maintenance_announcement_updated",
      message: `Maintenance announcement ${after.name} has been updated. Changes: ${changes.join("; ")}.`,
      previousState: after.state,
      state: after.state,
      context: { changed_fields: changed.map(modelFieldName) },
    });
    return reload(tx, before.id, query);
  }).catch((error: { code?: string }) => {
    throw error.code === "P2025" ? notFound() : error;
  });
}

/** Deleting also deletes the offering links and the system announcement (foreign-key cascades). */
export async function deleteMaintenance(ctx: Context, uuid: string): Promise<string> {
  const m = await loadManageable(ctx, uuid);
  await transact(ctx, async (tx, outbox) => {
    const { count } = await tx.maintenanceAnnouncement.deleteMany({ where: { id: m.id } });
    if (count === 0) throw notFound();
    await recordMaintenanceChange(ctx, tx, outbox, coreOf(m), {
      eventType: "maintenance_announcement_deleted",
      message: `Maintenance announcement ${m.name} has been deleted.`,
      previousState: m.state,
      state: null,
    });
  });
  return toHex(m.id);
}

const refused = (rule: TransitionRule<MaintenanceState, unknown>, current: MaintenanceState) =>
  wrongState(MaintenanceTransitionError, `Valid states for operation: ${rule.from.map(maintenanceStateLabel).join(", ")}.`, current, rule.from);

export async function transitionMaintenance(ctx: Context, uuid: string, action: MaintenanceAction, query: MaintenanceQuery = {}) {
  const m = await loadManageable(ctx, uuid);
  const rule = maintenanceRule(action);
  if (!canTransition(rule, m.state)) throw refused(rule, m.state);
  const effect = rule.effect!;
  const data = { state: rule.to, ...(effect.stamps ? { [effect.stamps]: ctx.now() } : {}) };
  return transact(ctx, async (tx, outbox) => {
    const replaced = await swapFromObserved(
      rule,
      m.state,
      (from) => tx.maintenanceAnnouncement.updateMany({ where: { id: m.id, state: from }, data }),
      async () => (await findUnique(tx, "maintenanceAnnouncement", { where: { id: m.id }, select: { state: true } }))?.state ?? null,
      { invalid: (current) => refused(rule, current), missing: notFound },
    );
    await syncAnnouncement(tx, effect.announcement, await sourceOf(tx, m.id));
    await recordMaintenanceChange(ctx, tx, outbox, coreOf(m), {
      eventType: effect.eventType,
      message: `Maintenance announcement ${m.name} has been ${effect.eventType.replace("maintenance_announcement_", "")}.`,
      previousState: replaced,
      state: rule.to,
      context: { action },
    });
    return reload(tx, m.id, query);
  });
}

const sourceOf = (tx: Tx, id: string) => findUniqueOrThrow(tx, "maintenanceAnnouncement", { where: { id }, select: ANNOUNCEMENT_SOURCE });

/** Subscribers hear of changes to the announcements of the providers they manage (staff and support: all). */
export async function canSeeMaintenanceChange(ctx: Context, change: { providerCustomerId: string }) {
  ctx.requireViewer();
  return ctx.access.readsAll || canManageProvider(ctx, change.providerCustomerId);
}
