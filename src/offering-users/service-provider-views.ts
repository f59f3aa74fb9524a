import { createHash } from "node:crypto";
import { offeringProviderScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import { getOffering } from "../directory/service-offerings.ts";
import { type Connection, emptyConnection } from "../platform/reads/paginate.ts";
import { forbidden } from "../platform/errors.ts";

/** The user attributes a provider sees on offering users here: what the offering-user serializer exposes. */
export const EXPOSED_USER_FIELDS = ["username", "full_name", "email"] as const;

export interface UserAttributeConfig {
  offeringId: string;
  offeringName: string;
  exposedFields: readonly string[];
  created: Date;
  modified: Date;
}

/** Offering pages only the provider side (and staff, support) may read. */
async function providerOffering(ctx: Context, uuid: string) {
  const offering = await getOffering(ctx, uuid, { select: { id: true, name: true, customerId: true, created: true, modified: true } });
  if (!ctx.access.readsAll && !(await ctx.access.can(Permission.UPDATE_OFFERING, offeringProviderScopes(offering)))) throw forbidden();
  return offering;
}

/**
 * Waldur's user-attribute-config/: which user attributes the provider receives. The gateway has no per-offering
 * configuration, so every offering answers Waldur's default (`is_default: true`) listing the exposed fields.
 */
export async function userAttributeConfig(ctx: Context, uuid: string): Promise<UserAttributeConfig> {
  const offering = await providerOffering(ctx, uuid);
  return { offeringId: offering.id, offeringName: offering.name, exposedFields: EXPOSED_USER_FIELDS, created: offering.created, modified: offering.modified };
}

/** A stable identifier for the default configuration of one offering. */
export const attributeConfigUuid = (offeringId: string) =>
  createHash("sha1").update(`user-attribute-config:${offeringId}`).digest("hex").slice(0, 32);

export type OfferingAccountKind = "PROJECT_SERVICE" | "COURSE";

/**
 * Project service accounts and course accounts are not modelled by the gateway: after the provider check these
 * lists are empty, which the site agent accepts (it then has no such accounts to create).
 */
export async function offeringAccounts(ctx: Context, uuid: string, _kind: OfferingAccountKind): Promise<Connection<never>> {
  await providerOffering(ctx, uuid);
  return emptyConnection();
}
