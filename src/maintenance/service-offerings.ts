import type { Context } from "../context.ts";
import type { MaintenanceAnnouncementOffering, Prisma } from "../generated/prisma/client.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { fieldError, type FieldErrors, inputError, invalid, missingObject, notFound } from "../platform/errors.ts";
import { parseUuid, toHex } from "../platform/ids.ts";
import { type Outbox, type Tx, transact } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import { MAINTENANCE_CORE, type MaintenanceCore, recordMaintenanceChange } from "./changes.ts";
import { MAINTENANCE_OFFERING_CONTRACT } from "./contract.ts";
import { type ImpactLevel, impactLevelDisplay, impactLevels } from "./enums.ts";
import { canManageProvider, requireManager, visibleMaintenance } from "./visibility.ts";
import { findFirst, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type MaintenanceOfferingQuery = {
  select?: Prisma.MaintenanceAnnouncementOfferingSelect;
  include?: Prisma.MaintenanceAnnouncementOfferingInclude;
};

/** Writable fields of a link, named as the GraphQL input names them. */
export interface MaintenanceOfferingInput {
  maintenanceUuid?: string | null;
  offeringUuid?: string | null;
  impactLevel?: ImpactLevel | null;
  impactDescription?: string | null;
}

const LINK_CORE = {
  id: true,
  maintenanceId: true,
  offeringId: true,
  impactLevel: true,
  impactDescription: true,
  offering: { select: { name: true } },
  maintenance: { select: MAINTENANCE_CORE },
} as const;
type LinkCore = Prisma.MaintenanceAnnouncementOfferingGetPayload<{ select: typeof LINK_CORE }>;

const visibleLinks = async (ctx: Context): Promise<Prisma.MaintenanceAnnouncementOfferingWhereInput> => ({
  maintenance: await visibleMaintenance(ctx),
});

export async function listMaintenanceOfferings(
  ctx: Context,
  args: ListRequest<typeof MAINTENANCE_OFFERING_CONTRACT>,
  query: MaintenanceOfferingQuery = {},
): Promise<Connection<MaintenanceAnnouncementOffering>> {
  return listPage(ctx.db, "maintenanceAnnouncementOffering", MAINTENANCE_OFFERING_CONTRACT, { visible: await visibleLinks(ctx), request: args, query });
}

/** The link `uuid`, read by `find` among those the viewer may see (404 otherwise). */
async function findVisible<T>(ctx: Context, uuid: string, find: (where: Prisma.MaintenanceAnnouncementOfferingWhereInput) => Promise<T | null>) {
  const id = parseUuid(uuid);
  const visible = await visibleLinks(ctx);
  const row = id ? await find({ AND: [{ id }, visible] }) : null;
  if (!row) throw notFound();
  return row;
}

export async function getMaintenanceOffering(ctx: Context, uuid: string, query: MaintenanceOfferingQuery = {}) {
  return findVisible(ctx, uuid, (where) => findFirst(ctx.db, "maintenanceAnnouncementOffering", { ...query, where }));
}

/** The announcement named in a body: one the caller may not manage does not exist for them (400). */
async function manageableMaintenance(ctx: Context, uuid: string): Promise<MaintenanceCore> {
  const id = parseUuid(uuid);
  const m = id ? await findUnique(ctx.db, "maintenanceAnnouncement", { where: { id }, select: MAINTENANCE_CORE }) : null;
  if (!m || !(await canManageProvider(ctx, m.serviceProvider.customerId))) throw missingObject("maintenanceUuid");
  return m;
}

/** An affected offering must be one of the announcing provider's own. */
async function providerOffering(ctx: Context, uuid: string, m: MaintenanceCore) {
  const id = parseUuid(uuid);
  const offering = id ? await findUnique(ctx.db, "offering", { where: { id }, select: { id: true, name: true, customerId: true } }) : null;
  if (!offering) throw missingObject("offeringUuid");
  if (offering.customerId !== m.serviceProvider.customerId) {
    throw fieldError("offeringUuid", "Offering must belong to the service provider of the maintenance announcement.");
  }
  return offering;
}

function validLinkFields(input: MaintenanceOfferingInput, creating: boolean) {
  const errors: FieldErrors = {};
  if (creating) for (const field of ["maintenanceUuid", "offeringUuid"] as const) if (input[field] === undefined) errors[field] = ["This field is required."];
  for (const [field, value] of Object.entries(input)) if (value === null) errors[field] = ["This field may not be null."];
  if (Object.keys(errors).length) throw invalid(errors);
  return {
    ...(input.impactLevel != null ? { impactLevel: impactLevels.codeOf(input.impactLevel) } : {}),
    ...(input.impactDescription != null ? { impactDescription: input.impactDescription } : {}),
  };
}

const duplicate = () => inputError("The fields maintenance, offering must make a unique set.");
const rethrowDuplicate = (error: { code?: string }) => {
  throw error.code === "P2002" ? duplicate() : error.code === "P2025" ? notFound() : error;
};

/** Each change of a link is a change of its announcement's affected offerings: one event, one notification. */
interface LinkSummary {
  id: string;
  offeringId: string;
  offeringName: string;
  impactLevel: number;
}

async function recordLinkChange(
  ctx: Context,
  tx: Tx,
  outbox: Outbox<Topics>,
  link: LinkSummary,
  m: MaintenanceCore,
  verb: "created" | "updated" | "deleted",
) {
  await recordMaintenanceChange(ctx, tx, outbox, m, {
    eventType: `maintenance_announcement_offering_${verb}`,
    message: `Offering ${link.offeringName} affected by maintenance announcement ${m.name} has been ${verb}.`,
    previousState: m.state,
    state: m.state,
    context: {
      maintenance_announcement_offering_uuid: toHex(link.id),
      offering_uuid: toHex(link.offeringId),
      offering_name: link.offeringName,
      impact_level: link.impactLevel,
      impact_level_display: impactLevelDisplay(link.impactLevel),
    },
  });
}

export async function createMaintenanceOffering(ctx: Context, input: MaintenanceOfferingInput, query: MaintenanceOfferingQuery = {}) {
  ctx.requireViewer();
  const fields = validLinkFields(input, true);
  const m = await manageableMaintenance(ctx, input.maintenanceUuid!);
  const offering = await providerOffering(ctx, input.offeringUuid!, m);
  return transact(ctx, async (tx, outbox) => {
    const link = await tx.maintenanceAnnouncementOffering.create({
      data: { maintenanceId: m.id, offeringId: offering.id, created: ctx.now(), ...fields },
      select: { id: true, impactLevel: true },
    });
    await recordLinkChange(ctx, tx, outbox, { ...link, offeringId: offering.id, offeringName: offering.name }, m, "created");
    return findUniqueOrThrow(tx, "maintenanceAnnouncementOffering", { ...query, where: { id: link.id } });
  }).catch(rethrowDuplicate);
}

async function loadManageableLink(ctx: Context, uuid: string): Promise<LinkCore> {
  const link = await findVisible(ctx, uuid, (where) => findFirst(ctx.db, "maintenanceAnnouncementOffering", { select: LINK_CORE, where }));
  await requireManager(ctx, link.maintenance.serviceProvider.customerId);
  return link;
}

export async function updateMaintenanceOffering(
  ctx: Context,
  uuid: string,
  input: MaintenanceOfferingInput,
  query: MaintenanceOfferingQuery = {},
) {
  const link = await loadManageableLink(ctx, uuid);
  const fields = validLinkFields(input, false);
  const m = input.maintenanceUuid ? await manageableMaintenance(ctx, input.maintenanceUuid) : link.maintenance;
  const offering = input.offeringUuid ? await providerOffering(ctx, input.offeringUuid, m) : { id: link.offeringId, name: link.offering.name };
  if (m.id !== link.maintenanceId && offering.id === link.offeringId) await providerOffering(ctx, toHex(offering.id), m);
  return transact(ctx, async (tx, outbox) => {
    const updated = await tx.maintenanceAnnouncementOffering.update({
      where: { id: link.id },
      data: { maintenanceId: m.id, offeringId: offering.id, ...fields },
      select: { id: true, impactLevel: true },
    });
    const summary = { ...updated, offeringId: offering.id, offeringName: offering.name };
    await recordLinkChange(ctx, tx, outbox, summary, m, "updated");
    if (m.id !== link.maintenanceId) await recordLinkChange(ctx, tx, outbox, summary, link.maintenance, "deleted");
    return findUniqueOrThrow(tx, "maintenanceAnnouncementOffering", { ...query, where: { id: link.id } });
  }).catch(rethrowDuplicate);
}

export async function deleteMaintenanceOffering(ctx: Context, uuid: string): Promise<string> {
  const link = await loadManageableLink(ctx, uuid);
  await transact(ctx, async (tx, outbox) => {
    const { count } = await tx.maintenanceAnnouncementOffering.deleteMany({ where: { id: link.id } });
    if (count === 0) throw notFound();
    const summary = { id: link.id, offeringId: link.offeringId, offeringName: link.offering.name, impactLevel: link.impactLevel };
    await recordLinkChange(ctx, tx, outbox, summary, link.maintenance, "deleted");
  });
  return toHex(link.id);
}
