import type { Context } from "../context.ts";
import type { Prisma, UserOfferingConsent } from "../generated/prisma/client.ts";
import { referenced, visibleOne } from "../directory/lookup.ts";
import { visibleOfferings } from "../directory/visibility.ts";
import { recordEvent } from "../events/record.ts";
import type { FilterValues, OrderValue } from "../collections/contract.ts";
import { listPage, type ListRequest } from "../collections/list-page.ts";
import { fieldError, forbidden, inputError } from "../platform/errors.ts";
import { toHex } from "../platform/ids.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { advisoryLock } from "../platform/database/locks.ts";
import { type Outbox, transact, type Tx } from "../platform/database/transaction.ts";
import type { Topics } from "../platform/messaging/topics.ts";
import { CONSENT_CONTRACT } from "./contract.ts";
import { findFirst, findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export type ConsentQuery = { select?: Prisma.UserOfferingConsentSelect; include?: Prisma.UserOfferingConsentInclude };

export type ConsentFilter = FilterValues<typeof CONSENT_CONTRACT>;
export type ConsentOrder = OrderValue<typeof CONSENT_CONTRACT>;

/** Users see their own consents; staff and support see all. */
function visibleConsents(ctx: Context): Prisma.UserOfferingConsentWhereInput {
  const viewer = ctx.requireViewer();
  return ctx.access.readsAll ? {} : { userId: viewer.id };
}

export async function listConsents(
  ctx: Context,
  args: ListRequest<typeof CONSENT_CONTRACT>,
  query: ConsentQuery = {},
): Promise<Connection<UserOfferingConsent>> {
  return listPage(ctx.db, "userOfferingConsent", CONSENT_CONTRACT, { visible: visibleConsents(ctx), request: args, query });
}

/** The consent `uuid`, read by `find` among those the viewer may see (404 otherwise). */
async function findVisible<T>(ctx: Context, uuid: string, find: (where: Prisma.UserOfferingConsentWhereInput) => Promise<T | null>) {
  const visible = visibleConsents(ctx);
  return visibleOne(uuid, (id) => find({ AND: [{ id }, visible] }));
}

export async function getConsent(ctx: Context, uuid: string, query: ConsentQuery = {}) {
  return findVisible(ctx, uuid, (where) => findFirst(ctx.db, "userOfferingConsent", { ...query, where }));
}

async function recordConsentEvent(
  ctx: Context,
  tx: Tx,
  outbox: Outbox<Topics>,
  granted: boolean,
  consent: { id: string; userId: string; version: string },
  offering: { id: string; name: string; customerId: string },
) {
  const username = ctx.viewer?.username ?? "";
  await recordEvent(ctx, tx, outbox, {
    type: granted ? "terms_of_service_consent_granted" : "terms_of_service_consent_revoked",
    message: `User ${username} has ${granted ? "accepted" : "revoked consent to"} the terms of service (version ${consent.version}) of offering ${offering.name}.`,
    context: { consent_uuid: toHex(consent.id), offering_uuid: toHex(offering.id), version: consent.version, affected_user_uuid: toHex(consent.userId) },
    scopes: [
      { type: "USER", id: consent.userId },
      { type: "OFFERING", id: offering.id },
      { type: "CUSTOMER", id: offering.customerId },
    ],
  });
}

/**
 * Consent of the caller to the offering's active terms. A revoked or outdated consent is reactivated with the
 * active version; a current one is a 400.
 */
export async function grantConsent(ctx: Context, offeringUuid: string, query: ConsentQuery = {}) {
  const viewer = ctx.requireViewer();
  const visible = await visibleOfferings(ctx);
  const offering = await referenced("offeringUuid", offeringUuid, (id) =>
    findFirst(ctx.db, "offering", { where: { AND: [{ id }, visible] }, select: { id: true, name: true, customerId: true } }),
  );
  return recordConsent(ctx, viewer.id, offering, { rejectCurrent: true }, query);
}

/** Shared by the consent endpoint and by orders that accept the terms of service. */
export async function recordConsent(
  ctx: Context,
  userId: string,
  offering: { id: string; name: string; customerId: string },
  options: { rejectCurrent: boolean },
  query: ConsentQuery = {},
) {
  return transact(ctx, async (tx, outbox) => {
    const consentId = await consentWithin(ctx, tx, outbox, userId, offering, options);
    if (!consentId) throw fieldError("offeringUuid", "This offering has no active terms of service.");
    return findUniqueOrThrow(tx, "userOfferingConsent", { ...query, where: { id: consentId } });
  });
}

/**
 * Records consent to the offering's active version inside the caller's transaction (a revoked or outdated
 * consent is reactivated). Returns the consent's id, or null when the offering has no active terms.
 * Concurrent consents of one user to one offering queue on a lock, so the second reads the first's record.
 */
export async function consentWithin(
  ctx: Context,
  tx: Tx,
  outbox: Outbox<Topics>,
  userId: string,
  offering: { id: string; name: string; customerId: string },
  options: { rejectCurrent: boolean },
): Promise<string | null> {
  const terms = await findFirst(tx, "offeringTermsOfService", { where: { offeringId: offering.id, isActive: true }, select: { version: true } });
  if (!terms) return null;
  await advisoryLock(tx, [`consent:${userId}:${offering.id}`]);
  const existing = await findUnique(tx, "userOfferingConsent", { where: { userId_offeringId: { userId, offeringId: offering.id } } });
  const current = existing && !existing.revocationDate && existing.version === terms.version;
  if (current && options.rejectCurrent) {
    throw inputError("You have already consented to the current terms of service of this offering.");
  }
  if (current) return existing.id;
  const data = { version: terms.version, agreementDate: ctx.now(), revocationDate: null };
  const consent = existing
    ? await tx.userOfferingConsent.update({ where: { id: existing.id }, data })
    : await tx.userOfferingConsent.create({ data: { ...data, userId, offeringId: offering.id, created: ctx.now() } });
  await recordConsentEvent(ctx, tx, outbox, true, consent, offering);
  return consent.id;
}

export async function revokeConsent(ctx: Context, uuid: string, query: ConsentQuery = {}) {
  const viewer = ctx.requireViewer();
  const consent = await findVisible(ctx, uuid, (where) =>
    findFirst(ctx.db, "userOfferingConsent", { include: { offering: { select: { id: true, name: true, customerId: true } } }, where }),
  );
  if (consent.userId !== viewer.id && !ctx.access.isStaff) throw forbidden("You don't have permission to revoke this consent.");
  if (consent.revocationDate) throw inputError("This consent is already revoked.");
  return transact(ctx, async (tx, outbox) => {
    const { count } = await tx.userOfferingConsent.updateMany({
      where: { id: consent.id, revocationDate: null },
      data: { revocationDate: ctx.now() },
    });
    if (count === 0) throw inputError("This consent is already revoked.");
    await recordConsentEvent(ctx, tx, outbox, false, consent, consent.offering);
    return findUniqueOrThrow(tx, "userOfferingConsent", { ...query, where: { id: consent.id } });
  });
}
