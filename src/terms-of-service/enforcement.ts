import type { Context } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { forbidden } from "../platform/errors.ts";
import { activeTermsOf, consentOf, consentStatus } from "./consent-status.ts";
import { findMany } from "../platform/reads/sql/find.ts";

interface OfferingRef {
  id: string;
  name: string;
  pluginOptions: unknown;
}

const allowsOfferingUsers = (offering: { pluginOptions: unknown }) =>
  (offering.pluginOptions as Record<string, unknown> | null)?.service_provider_can_create_offering_user === true;

/** Enforcement applies to non-staff, non-support callers on offerings with offering users, when switched on. */
const enforcedFor = (ctx: Context) => ctx.config.enforceUserConsent && !ctx.access.readsAll;

/**
 * Access check for a user's own use of an offering's resources (ENFORCE_USER_CONSENT_FOR_OFFERINGS):
 * 403 with Waldur's messages when the caller has no current consent to the offering's active terms.
 */
export async function requireConsent(ctx: Context, offering: OfferingRef): Promise<void> {
  if (!enforcedFor(ctx) || !allowsOfferingUsers(offering)) return;
  const viewer = ctx.requireViewer();
  const terms = await activeTermsOf(ctx)(offering.id);
  const status = consentStatus(terms, await consentOf(ctx)({ userId: viewer.id, offeringId: offering.id }), ctx.now());
  if (status === "MISSING") {
    throw forbidden(
      `Terms of Service consent required for offering '${offering.name}'. Please accept the Terms of Service before accessing this resource.`,
    );
  }
  if (status === "EXPIRED") {
    throw forbidden(
      `Your Terms of Service consent for '${offering.name}' has expired. Please accept the updated Terms of Service (version ${terms!.version}) `,
    );
  }
}

/**
 * With enforcement on, providers see only offering users who consented (Waldur §2.7): the caller's own records,
 * records on offerings without active terms, and records whose user has an unrevoked consent for that offering.
 */
export async function consentedOfferingUsers(ctx: Context): Promise<Prisma.OfferingUserWhereInput> {
  if (!enforcedFor(ctx)) return {};
  const viewer = ctx.requireViewer();
  const withTerms = (
    await findMany(ctx.db, "offeringTermsOfService", { where: { isActive: true }, select: { offeringId: true }, distinct: ["offeringId"] })
  ).map((t) => t.offeringId);
  if (!withTerms.length) return {};
  return {
    OR: [
      { userId: viewer.id },
      { offeringId: { notIn: withTerms } },
      { offeringId: { in: withTerms }, hasConsent: true },
    ],
  };
}
