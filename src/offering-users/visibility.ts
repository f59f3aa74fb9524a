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
  if (ctx.access.readsAll) return {};
  const viewer = ctx.requireViewer();
  const [customerIds, offeringIds, adminProjectIds, ownedProjectIds] = await Promise.all([
    ctx.access.scopeIds("CUSTOMER"),
    ctx.access.scopeIds("OFFERING"),
    ctx.access.scopeIds("PROJECT", [Role.PROJECT_ADMIN, Role.PROJECT_MANAGER]),
    ctx.access.projectsOfCustomers(),
  ]);
  const memberOf = (projectFilter: Prisma.StringFilter | string[]) => ({
    user: {
      roles: {
        some: {
          isActive: true,
          scopeType: "PROJECT" as const,
          scopeId: Array.isArray(projectFilter) ? { in: projectFilter } : projectFilter,
        },
      },
    },
  });
  const consumerProjects = [...new Set([...adminProjectIds, ...ownedProjectIds])];
  const byRole: Prisma.OfferingUserWhereInput = {
    offering: { pluginOptions: { path: ["service_provider_can_create_offering_user"], equals: true } },
    OR: [
      { userId: viewer.id },
      ...(customerIds.length ? [{ offering: { customerId: { in: customerIds } } }] : []),
      ...(offeringIds.length ? [{ offeringId: { in: offeringIds } }] : []),
      ...(consumerProjects.length ? [memberOf(consumerProjects)] : []),
    ],
  };
  return { AND: [byRole, await consentedOfferingUsers(ctx)] };
}
