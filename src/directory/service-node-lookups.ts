import type { Context } from "../context.ts";
import type { ScopeType } from "../generated/prisma/client.ts";
import { notFound } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { getOffering } from "./service-offerings.ts";
import { getPlan } from "./service-plans.ts";
import { getCustomer, getProject } from "./service-organisations.ts";
import { findUnique } from "../platform/reads/sql/find.ts";

/** Components and plans are seen with their offering. */
export async function getOfferingComponent(ctx: Context, uuid: string) {
  const id = parseUuid(uuid);
  const component = id ? await findUnique(ctx.db, "offeringComponent", { where: { id }, select: { offeringId: true } }) : null;
  if (!component) throw notFound();
  return getOffering(ctx, component.offeringId);
}

export const getOfferingPlan = (ctx: Context, uuid: string) => getPlan(ctx, uuid, { select: { id: true } });

const SCOPE_LOOKUPS: Record<ScopeType, (ctx: Context, uuid: string) => Promise<unknown>> = {
  CUSTOMER: getCustomer,
  PROJECT: getProject,
  OFFERING: getOffering,
};

/** A role grant is seen by its holder and by whoever sees its scope. */
export async function getRoleGrant(ctx: Context, uuid: string) {
  const id = parseUuid(uuid);
  const grant = id ? await findUnique(ctx.db, "roleGrant", { where: { id } }) : null;
  if (!grant) throw notFound();
  if (grant.userId !== ctx.viewer?.id) await SCOPE_LOOKUPS[grant.scopeType](ctx, grant.scopeId);
  return grant;
}
