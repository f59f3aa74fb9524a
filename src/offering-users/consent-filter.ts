import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { findMany } from "../platform/reads/sql/find.ts";
import { ACTIVE_TERMS_SELECT, consentStatus, hasConsent } from "../terms-of-service/consent-status.ts";

/**
 * Offering users whose user holds a consent that counts under the offering's active terms (`consented`), or, of the
 * offerings that have active terms, those who do not: no consent, a revoked one, or one to an older version when the
 * terms ask to consent again and the grace period is over (consentStatus, the rule the records' `hasConsent` shows).
 */
export async function consentedToActiveTerms(ctx: Context, consented: boolean): Promise<Prisma.OfferingUserWhereInput> {
  const terms = await findMany(ctx.db, "offeringTermsOfService", { where: { isActive: true }, select: ACTIVE_TERMS_SELECT });
  const now = ctx.now();
  const counting = terms.map((active) => {
    // The versions whose consent counts now: this one, and any other while they need not (or may still) consent again.
    const olderCounts = hasConsent(consentStatus(active, { version: "", revocationDate: null }, now));
    const consent: Prisma.UserOfferingConsentWhereInput = {
      offeringId: active.offeringId,
      revocationDate: null,
      ...(olderCounts || active.version === "" ? {} : { version: active.version }),
    };
    return { offeringId: active.offeringId, user: { consents: { some: consent } } };
  });
  if (consented) return counting.length ? { OR: counting } : { id: { in: [] } };
  if (!terms.length) return { id: { in: [] } };
  return { AND: [{ offeringId: { in: terms.map((active) => active.offeringId) } }, ...counting.map((each) => ({ NOT: each }))] };
}
