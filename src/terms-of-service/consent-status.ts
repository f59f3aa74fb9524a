import type { Context } from "../context.ts";
import { batchLoader } from "../platform/database/batch.ts";
import { findMany } from "../platform/reads/sql/find.ts";

export interface ActiveTerms {
  id: string;
  offeringId: string;
  version: string;
  requiresReconsent: boolean;
  gracePeriodDays: number;
  activatedAt: Date | null;
  created: Date;
}

export interface ConsentRecord {
  version: string;
  revocationDate: Date | null;
}

export interface StoredConsent extends ConsentRecord {
  id: string;
  agreementDate: Date;
  /** The offering's active terms (one at most). */
  offering: { termsOfService: ActiveTerms[] };
}

/**
 * NOT_REQUIRED: the offering has no active terms. CONSENTED: a current consent. GRACE: consent to an older
 * version while a reconsent grace period runs. EXPIRED: that grace period is over. MISSING: no unrevoked consent.
 */
export type ConsentStatus = "NOT_REQUIRED" | "CONSENTED" | "GRACE" | "EXPIRED" | "MISSING";

const DAY_MS = 86_400_000;

export function graceEnds(terms: ActiveTerms): Date {
  return new Date((terms.activatedAt ?? terms.created).getTime() + terms.gracePeriodDays * DAY_MS);
}

export function consentStatus(terms: ActiveTerms | null | undefined, consent: ConsentRecord | null | undefined, now: Date): ConsentStatus {
  if (!terms) return "NOT_REQUIRED";
  if (!consent || consent.revocationDate) return "MISSING";
  if (consent.version === terms.version || !terms.requiresReconsent) return "CONSENTED";
  return now < graceEnds(terms) ? "GRACE" : "EXPIRED";
}

export const hasConsent = (status: ConsentStatus) => status === "CONSENTED" || status === "GRACE";
export const requiresReconsent = (status: ConsentStatus) => status === "GRACE" || status === "EXPIRED";

export const ACTIVE_TERMS_SELECT = {
  id: true, offeringId: true, version: true, requiresReconsent: true, gracePeriodDays: true, activatedAt: true, created: true,
} as const;

/** The active terms of an offering, batched per request. */
export const activeTermsOf = (ctx: Context) =>
  ctx.memo("activeTerms", () =>
    batchLoader<string, ActiveTerms>(async (offeringIds) => {
      const rows = await findMany(ctx.db, "offeringTermsOfService", {
        where: { offeringId: { in: offeringIds }, isActive: true },
        select: ACTIVE_TERMS_SELECT,
      });
      return new Map(rows.map((row) => [row.offeringId, row]));
    }, (id) => id),
  );

/**
 * A user's consent record for an offering, with the offering's active terms (an offering user's consent status reads
 * both at once), batched per request.
 */
export const consentOf = (ctx: Context) =>
  ctx.memo("consents", () =>
    batchLoader<{ userId: string; offeringId: string }, StoredConsent>(async (pairs) => {
      const rows = await findMany(ctx.db, "userOfferingConsent", {
        where: { OR: pairs.map(({ userId, offeringId }) => ({ userId, offeringId })) },
        select: {
          id: true, userId: true, offeringId: true, version: true, revocationDate: true, agreementDate: true,
          offering: { select: { termsOfService: { where: { isActive: true }, select: ACTIVE_TERMS_SELECT } } },
        },
      });
      return new Map(rows.map((row) => [`${row.userId}:${row.offeringId}`, row]));
    }, ({ userId, offeringId }) => `${userId}:${offeringId}`),
  );

/** Consents are only looked up for offerings that have active terms. */
export async function consentStatusOf(ctx: Context, userId: string, offeringId: string): Promise<ConsentStatus> {
  const terms = await activeTermsOf(ctx)(offeringId);
  return terms ? consentStatus(terms, await consentOf(ctx)({ userId, offeringId }), ctx.now()) : "NOT_REQUIRED";
}

/** What an offering user's row carries about consent: copies that triggers keep (prisma/schema.prisma). */
export interface ConsentCopies {
  userId: string;
  offeringId: string;
  /** The user holds an unrevoked consent to the offering (any version). */
  hasConsent: boolean;
  offeringHasActiveTerms: boolean;
}

/**
 * An offering user's consent status, read off its row's copies: known at once (no promise) unless the user consented
 * to an offering with active terms, when the consent's version is compared with the terms'.
 */
export function offeringUserConsentStatus(ctx: Context, row: ConsentCopies): ConsentStatus | Promise<ConsentStatus> {
  if (!row.offeringHasActiveTerms) return "NOT_REQUIRED";
  if (!row.hasConsent) return "MISSING";
  return consentOf(ctx)(row).then((consent) => (consent ? consentStatus(consent.offering.termsOfService[0], consent, ctx.now()) : "MISSING"));
}
