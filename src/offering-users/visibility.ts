import type { Prisma } from "../generated/prisma/client.ts";
import type { Context } from "../context.ts";
import { Role } from "../auth/permissions.ts";
import { consentedOfferingUsers } from "../terms-of-service/enforcement.ts";

/**
 * Which offering users the viewer may see (Waldur §2.7). Staff and support see all. Others see, on offerings
 * that let the provider manage offering users: their own records; those of offerings whose customer or which
 * offering they hold a role on; and those of members of projects they administer or whose customer they own.
 */
export async function visibleOfferingUsers(ctx: Context): Promise<Prisma.OfferingUserWhereInput> {
  return (await offeringUserVisibility(ctx)).where;
}

/**
 * The viewer's visibility as one condition (`where`) and in two parts: whole offerings (a role on the offering or its
 * provider; null: none) and single records (their own, those of members of their projects). A list's count reads the
 * first from the tallies of offerings and states and counts only the records of the second that the first leaves out.
 */
export type OfferingUserVisibility = { where: Prisma.OfferingUserWhereInput } & (
  | { all: true }
  | { all: false; offerings: Prisma.OfferingUserWhereInput | null; records: Prisma.OfferingUserWhereInput }
);

export async function offeringUserVisibility(ctx: Context): Promise<OfferingUserVisibility> {
  if (ctx.access.readsAll) return { all: true, where: {} };
  const { byOffering, byRecord, consented } = await visibilityBranches(ctx);
  return {
    all: false,
    // The subquery (members of one's projects) last: the cheap branches decide most rows first.
    where: { AND: [{ offering: MANAGED, OR: [...(byOffering.length ? [{ offering: { OR: byOffering } }] : []), ...byRecord] }, consented] },
    offerings: byOffering.length ? { AND: [{ offering: { ...MANAGED, OR: byOffering } }, consented] } : null,
    records: { AND: [{ offering: MANAGED, OR: byRecord }, consented] },
  };
}

/** Offerings that let the provider manage offering users. */
const MANAGED = { pluginOptions: { path: ["service_provider_can_create_offering_user"], equals: true } } satisfies Prisma.OfferingWhereInput;

async function visibilityBranches(ctx: Context) {
  const viewer = ctx.requireViewer();
  const [customerIds, offeringIds, adminProjectIds, ownedProjectIds] = await Promise.all([
    ctx.access.scopeIds("CUSTOMER"),
    ctx.access.scopeIds("OFFERING"),
    ctx.access.scopeIds("PROJECT", [Role.PROJECT_ADMIN, Role.PROJECT_MANAGER]),
    ctx.access.projectsOfCustomers(),
  ]);
  const consumerProjects = [...new Set([...adminProjectIds, ...ownedProjectIds])];
  const memberOfConsumerProjects = {
    user: { roles: { some: { isActive: true, scopeType: "PROJECT" as const, scopeId: { in: consumerProjects } } } },
  };
  const byOffering: Prisma.OfferingWhereInput[] = [
    ...(customerIds.length ? [{ customerId: { in: customerIds } }] : []),
    ...(offeringIds.length ? [{ id: { in: offeringIds } }] : []),
  ];
  const byRecord: Prisma.OfferingUserWhereInput[] = [{ userId: viewer.id }, ...(consumerProjects.length ? [memberOfConsumerProjects] : [])];
  return { byOffering, byRecord, consented: await consentedOfferingUsers(ctx) };
}
