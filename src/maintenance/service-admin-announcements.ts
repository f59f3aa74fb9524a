import type { Context } from "../context.ts";
import { requireStaff } from "../directory/lookup.ts";
import { recordEvent } from "../events/record.ts";
import type { AdminAnnouncement, AnnouncementType, Prisma } from "../generated/prisma/client.ts";
import { choiceFilter, defineContract, valuesByLabel } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { type FieldErrors, invalid, notFound } from "../platform/errors.ts";
import { parseUuid, toHex } from "../platform/ids.ts";
import { icontains } from "../platform/reads/text-match.ts";
import { type Outbox, type Tx, transact } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import { ANNOUNCEMENT_TYPE_LABELS } from "./enums.ts";
import { findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type AdminAnnouncementQuery = { select?: Prisma.AdminAnnouncementSelect; include?: Prisma.AdminAnnouncementInclude };

/** Waldur's AdminAnnouncementFilterSet: active while active_from <= now < active_to (the request's clock). */
const activeNow = (active: boolean) => async (ctx: Context): Promise<Prisma.AdminAnnouncementWhereInput> => {
  const now = ctx.now();
  return active
    ? { activeFrom: { lte: now }, activeTo: { gt: now } }
    : { OR: [{ activeFrom: { gt: now } }, { activeTo: { lte: now } }] };
};

const TYPE_BY_LABEL = valuesByLabel(ANNOUNCEMENT_TYPE_LABELS);

export const ADMIN_ANNOUNCEMENT_CONTRACT = defineContract<Prisma.AdminAnnouncementWhereInput, Prisma.AdminAnnouncementOrderByWithRelationInput, Context>()({
  filters: {
    description: { kind: "text", rest: "description", description: "Case-insensitive substring", where: (text) => ({ description: icontains(text) }) },
    isActive: { kind: "boolean", rest: "is_active", description: "Whether now lies within the active window", where: activeNow },
    type: choiceFilter({
      rest: "type",
      labels: TYPE_BY_LABEL,
      enumName: "AnnouncementType",
      description: "Any of these types",
      where: (types) => ({ type: { in: types } }),
    }),
  },
  orderings: {
    active_from: (direction) => ({ activeFrom: direction }),
    active_to: (direction) => ({ activeTo: direction }),
    created: (direction) => ({ created: direction }),
    // Waldur offers `name`; an announcement's name is its text.
    name: (direction) => ({ description: direction }),
    type: (direction) => ({ type: direction }),
  },
  defaultOrder: ["-created"],
  tiebreak: [{ created: "desc" }, { id: "asc" }],
});

export interface AdminAnnouncementInput {
  description?: string | null;
  type?: AnnouncementType | null;
  activeFrom?: Date | null;
  activeTo?: Date | null;
}

/** Reading is open to every authenticated user (Waldur §4.5). */
export async function listAdminAnnouncements(
  ctx: Context,
  args: ListRequest<typeof ADMIN_ANNOUNCEMENT_CONTRACT>,
  query: AdminAnnouncementQuery = {},
): Promise<Connection<AdminAnnouncement>> {
  ctx.requireViewer();
  return listPage(ctx.db, "adminAnnouncement", ADMIN_ANNOUNCEMENT_CONTRACT, { request: args, query }, ctx);
}

export async function getAdminAnnouncement(ctx: Context, uuid: string, query: AdminAnnouncementQuery = {}) {
  ctx.requireViewer();
  const id = parseUuid(uuid);
  const row = id ? await findUnique(ctx.db, "adminAnnouncement", { ...query, where: { id } }) : null;
  if (!row) throw notFound();
  return row;
}

/**
 * Waldur's AdminAnnouncementSerializer: the description may be left out or blank (the model's `blank=True`; a new
 * announcement's is then empty) and is trimmed as DRF's CharField trims; the window is required.
 */
function validAnnouncement(input: AdminAnnouncementInput, current: { activeFrom: Date; activeTo: Date } | null) {
  const errors: FieldErrors = {};
  const required = current ? [] : (["activeFrom", "activeTo"] as const);
  for (const key of required) if (input[key] === undefined) errors[key] = ["This field is required."];
  for (const [key, value] of Object.entries(input)) if (value === null) errors[key] = ["This field may not be null."];
  const description = typeof input.description === "string" ? input.description.trim() : current ? undefined : "";
  if (description !== undefined && description.length > 4096) errors.description = ["Ensure this field has no more than 4096 characters."];
  const from = input.activeFrom ?? current?.activeFrom;
  const to = input.activeTo ?? current?.activeTo;
  if (!Object.keys(errors).length && from && to && to < from) errors.activeTo = ["Active to must not be before active from."];
  if (Object.keys(errors).length) throw invalid(errors);
  const { type, activeFrom, activeTo } = input;
  return Object.fromEntries(Object.entries({ description, type, activeFrom, activeTo }).filter(([, v]) => v != null));
}

/** Staff-only writes leave an audit event that concerns only its author (and staff and support). */
async function recordAnnouncementEvent(ctx: Context, tx: Tx, outbox: Outbox<Topics>, id: string, verb: "created" | "updated" | "deleted") {
  await recordEvent(ctx, tx, outbox, {
    type: `admin_announcement_${verb}`,
    message: `Admin announcement ${toHex(id)} has been ${verb}.`,
    context: { admin_announcement_uuid: toHex(id) },
    scopes: [],
  });
}

export async function createAdminAnnouncement(ctx: Context, input: AdminAnnouncementInput, query: AdminAnnouncementQuery = {}) {
  requireStaff(ctx);
  const data = validAnnouncement(input, null) as Prisma.AdminAnnouncementUncheckedCreateInput;
  const id = await transact(ctx, async (tx, outbox) => {
    const created = await tx.adminAnnouncement.create({ data: { ...data, created: ctx.now() }, select: { id: true } });
    await recordAnnouncementEvent(ctx, tx, outbox, created.id, "created");
    return created.id;
  });
  return findUniqueOrThrow(ctx.db, "adminAnnouncement", { ...query, where: { id } });
}

export async function updateAdminAnnouncement(ctx: Context, uuid: string, input: AdminAnnouncementInput, query: AdminAnnouncementQuery = {}) {
  requireStaff(ctx);
  const current = await getAdminAnnouncement(ctx, uuid, { select: { id: true, activeFrom: true, activeTo: true } });
  const data = validAnnouncement(input, current);
  await transact(ctx, async (tx, outbox) => {
    const { count } = await tx.adminAnnouncement.updateMany({ where: { id: current.id }, data });
    if (count === 0) throw notFound();
    await recordAnnouncementEvent(ctx, tx, outbox, current.id, "updated");
  });
  return findUniqueOrThrow(ctx.db, "adminAnnouncement", { ...query, where: { id: current.id } });
}

/** Deleting the announcement of a maintenance by hand is final: later edits of the maintenance do not recreate it. */
export async function deleteAdminAnnouncement(ctx: Context, uuid: string): Promise<string> {
  requireStaff(ctx);
  const current = await getAdminAnnouncement(ctx, uuid, { select: { id: true } });
  await transact(ctx, async (tx, outbox) => {
    const { count } = await tx.adminAnnouncement.deleteMany({ where: { id: current.id } });
    if (count === 0) throw notFound();
    await recordAnnouncementEvent(ctx, tx, outbox, current.id, "deleted");
  });
  return toHex(current.id);
}
