import type { EventType } from "../events/types.ts";
import { offeringProviderScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { OfferingTermsOfService, Prisma } from "../generated/prisma/client.ts";
import { referenced, visibleOne } from "../directory/lookup.ts";
import { visibleOfferings } from "../directory/visibility.ts";
import { recordEvent } from "../events/record.ts";
import type { FilterValues, OrderValue } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { fieldError, invalid } from "../platform/errors.ts";
import { idSet, toHex } from "../platform/ids.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { maxLength, validUrl } from "../platform/text.ts";
import { type Outbox, transact, type Tx } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import { TERMS_CONTRACT } from "./contract.ts";
import { visibleTerms } from "./visibility.ts";
import { findFirst, findMany, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type TermsQuery = { select?: Prisma.OfferingTermsOfServiceSelect; include?: Prisma.OfferingTermsOfServiceInclude };

export type TermsFilter = FilterValues<typeof TERMS_CONTRACT>;
export type TermsOrder = OrderValue<typeof TERMS_CONTRACT>;

export async function listTerms(
  ctx: Context,
  args: ListRequest<typeof TERMS_CONTRACT>,
  query: TermsQuery = {},
): Promise<Connection<OfferingTermsOfService>> {
  return listPage(ctx.db, "offeringTermsOfService", TERMS_CONTRACT, { visible: await visibleTerms(ctx), request: args, query });
}

/** The terms `uuid`, read by `find` among those the viewer may see (404 otherwise). */
async function findVisible<T>(ctx: Context, uuid: string, find: (where: Prisma.OfferingTermsOfServiceWhereInput) => Promise<T | null>) {
  const visible = await visibleTerms(ctx);
  return visibleOne(uuid, (id) => find({ AND: [{ id }, visible] }));
}

export async function getTerms(ctx: Context, uuid: string, query: TermsQuery = {}) {
  return findVisible(ctx, uuid, (where) => findFirst(ctx.db, "offeringTermsOfService", { ...query, where }));
}

/** Which of `ids` the viewer may see as terms of service (getTerms's rule). */
export const visibleTermsIds = async (ctx: Context, ids: string[]) =>
  idSet(await findMany(ctx.db, "offeringTermsOfService", { where: { AND: [{ id: { in: ids } }, await visibleTerms(ctx)] }, select: { id: true } }));

export interface TermsInput {
  termsOfService?: string | null;
  termsOfServiceLink?: string | null;
  isActive?: boolean | null;
  gracePeriodDays?: number | null;
}

export interface CreateTermsInput extends TermsInput {
  offering: string;
  version?: string | null;
  requiresReconsent?: boolean | null;
}

function validated(input: TermsInput) {
  if (input.gracePeriodDays != null && (!Number.isInteger(input.gracePeriodDays) || input.gracePeriodDays < 0)) {
    throw invalid({ gracePeriodDays: ["Ensure this value is greater than or equal to 0."] });
  }
  return {
    ...(input.termsOfService != null ? { termsOfService: input.termsOfService } : {}),
    ...(input.termsOfServiceLink != null ? { termsOfServiceLink: validUrl("termsOfServiceLink", input.termsOfServiceLink) } : {}),
    ...(input.gracePeriodDays != null ? { gracePeriodDays: input.gracePeriodDays } : {}),
  };
}

const onlyOneActive = () =>
  fieldError("isActive", "Only one active terms of service is allowed per offering. Deactivate the current one first.");

/** Concurrent changes of an offering's active version queue on a row lock of the offering. */
const lockOffering = (tx: Tx, offeringId: string) => tx.$queryRaw`SELECT id FROM offerings WHERE id = ${offeringId}::uuid FOR UPDATE`;

/** Under the offering's lock, so the check for another active version and the write are atomic. */
async function assertNoOtherActive(tx: Tx, offeringId: string, exceptId?: string) {
  await lockOffering(tx, offeringId);
  const other = await findFirst(tx, "offeringTermsOfService", {
    where: { offeringId, isActive: true, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (other) throw onlyOneActive();
}

const termsScopes = (termsId: string, offering: { id: string; customerId: string }) => [
  { type: "TERMS_OF_SERVICE" as const, id: termsId },
  { type: "OFFERING" as const, id: offering.id },
  { type: "CUSTOMER" as const, id: offering.customerId },
];

async function recordTermsEvent(
  ctx: Context,
  tx: Tx,
  outbox: Outbox<Topics>,
  type: EventType,
  terms: { id: string; version: string },
  offering: { id: string; name: string; customerId: string },
  context: Record<string, unknown> = {},
) {
  await recordEvent(ctx, tx, outbox, {
    type,
    message: `Terms of service ${terms.version || "(unversioned)"} of offering ${offering.name}: ${type.replace("terms_of_service_", "")}.`,
    context: { terms_of_service_uuid: toHex(terms.id), version: terms.version, offering_uuid: toHex(offering.id), ...context },
    scopes: termsScopes(terms.id, offering),
  });
}

/** The offering a new version is for (one the viewer may change) and the version's validated fields. */
async function newVersion(ctx: Context, input: CreateTermsInput) {
  const visible = await visibleOfferings(ctx);
  const offering = await referenced("offeringUuid", input.offering, (id) =>
    findFirst(ctx.db, "offering", { where: { AND: [{ id }, visible] }, select: { id: true, name: true, customerId: true } }),
  );
  const data = {
    ...validated(input),
    version: maxLength("version", input.version ?? "", 50),
    requiresReconsent: input.requiresReconsent ?? false,
    isActive: input.isActive ?? false,
  };
  await ctx.access.require(Permission.UPDATE_OFFERING, offeringProviderScopes(offering));
  return { offering, data };
}

async function insertVersion(ctx: Context, tx: Tx, outbox: Outbox<Topics>, { offering, data }: Awaited<ReturnType<typeof newVersion>>) {
  const terms = await tx.offeringTermsOfService.create({
    data: { ...data, offeringId: offering.id, activatedAt: data.isActive ? ctx.now() : null, created: ctx.now() },
    select: { id: true, version: true },
  });
  await recordTermsEvent(ctx, tx, outbox, "terms_of_service_created", terms, offering, { is_active: data.isActive });
  return terms;
}

export async function createTerms(ctx: Context, input: CreateTermsInput, query: TermsQuery = {}) {
  const version = await newVersion(ctx, input);
  return transact(ctx, async (tx, outbox) => {
    if (version.data.isActive) await assertNoOtherActive(tx, version.offering.id);
    const terms = await insertVersion(ctx, tx, outbox, version);
    return findUniqueOrThrow(tx, "offeringTermsOfService", { ...query, where: { id: terms.id } });
  });
}

/**
 * A new version made the offering's active one in one transaction: the version active until now is deactivated (its
 * event) and the new one created active (its event), under the offering's row lock; a failure changes nothing.
 */
export async function publishTerms(ctx: Context, input: Omit<CreateTermsInput, "isActive">, query: TermsQuery = {}) {
  const version = await newVersion(ctx, { ...input, isActive: true });
  return transact(ctx, async (tx, outbox) => {
    await lockOffering(tx, version.offering.id);
    const active = await findMany(tx, "offeringTermsOfService", { where: { offeringId: version.offering.id, isActive: true }, select: { id: true, version: true } });
    for (const previous of active) {
      await tx.offeringTermsOfService.update({ where: { id: previous.id }, data: { isActive: false } });
      await recordTermsEvent(ctx, tx, outbox, "terms_of_service_updated", previous, version.offering, { changed_fields: ["isActive"], is_active: false });
    }
    const terms = await insertVersion(ctx, tx, outbox, version);
    return findUniqueOrThrow(tx, "offeringTermsOfService", { ...query, where: { id: terms.id } });
  });
}

const TERMS_CORE = {
  id: true,
  version: true,
  isActive: true,
  offering: { select: { id: true, name: true, customerId: true } },
} as const;

async function loadForChange(ctx: Context, uuid: string) {
  const terms = await findVisible(ctx, uuid, (where) => findFirst(ctx.db, "offeringTermsOfService", { select: TERMS_CORE, where }));
  await ctx.access.require(Permission.UPDATE_OFFERING, offeringProviderScopes(terms.offering));
  return terms;
}

/** PUT/PATCH: `version` and `requires_reconsent` are fixed at creation and are not part of the input. */
export async function updateTerms(ctx: Context, uuid: string, input: TermsInput, query: TermsQuery = {}) {
  const terms = await loadForChange(ctx, uuid);
  const data = validated(input);
  const activating = input.isActive === true && !terms.isActive;
  const changes = { ...data, ...(input.isActive != null ? { isActive: input.isActive } : {}), ...(activating ? { activatedAt: ctx.now() } : {}) };
  return transact(ctx, async (tx, outbox) => {
    if (activating) await assertNoOtherActive(tx, terms.offering.id, terms.id);
    await tx.offeringTermsOfService.update({ where: { id: terms.id }, data: changes });
    await recordTermsEvent(ctx, tx, outbox, "terms_of_service_updated", terms, terms.offering, {
      changed_fields: Object.keys(changes),
      ...(input.isActive != null ? { is_active: input.isActive } : {}),
    });
    return findUniqueOrThrow(tx, "offeringTermsOfService", { ...query, where: { id: terms.id } });
  });
}

export async function deleteTerms(ctx: Context, uuid: string): Promise<string> {
  const terms = await loadForChange(ctx, uuid);
  await transact(ctx, async (tx, outbox) => {
    await tx.offeringTermsOfService.delete({ where: { id: terms.id } });
    await recordTermsEvent(ctx, tx, outbox, "terms_of_service_deleted", terms, terms.offering);
  });
  return toHex(terms.id);
}
