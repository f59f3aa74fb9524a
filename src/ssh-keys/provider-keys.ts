import type { Context } from "../context.ts";
import { listPage } from "../collections/list-page.ts";
import { visibleOne } from "../directory/lookup.ts";
import type { Prisma, SshKey } from "../generated/prisma/client.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { forbidden } from "../platform/errors.ts";
import { SSH_KEY_CONTRACT } from "./contract.ts";
import { ALLOCATIONS } from "../offering-users/allocated-resources.ts";
import type { SshKeyListArgs, SshKeyQuery } from "./service.ts";
import { count, findMany, findUnique } from "../platform/reads/sql/find.ts";

/** Staff and support, anyone with a role on the provider's customer, and the managers of its offerings. */
async function requireProviderRole(ctx: Context, customerId: string) {
  if (ctx.access.readsAll || (await ctx.access.hasAnyRole([{ type: "CUSTOMER", id: customerId }]))) return;
  const managed = await ctx.access.scopeIds("OFFERING");
  const managesAnOffering = managed.length > 0 && (await count(ctx.db, "offering", { customerId, id: { in: managed } })) > 0;
  if (!managesAnOffering) throw forbidden();
}

/** Projects where the provider has a live allocation (see ALLOCATIONS). */
async function servedProjectIds(ctx: Context, customerId: string) {
  const resources = await findMany(ctx.db, "resource", {
    where: { AND: [{ offering: { customerId } }, ALLOCATIONS] },
    select: { projectId: true },
    distinct: ["projectId"],
  });
  return resources.map((r) => r.projectId);
}

const activeProjectMembership = (projectIds: string[], now: Date): Prisma.RoleGrantWhereInput => ({
  scopeType: "PROJECT",
  scopeId: { in: projectIds },
  isActive: true,
  OR: [{ expirationTime: null }, { expirationTime: { gt: now } }],
});

/**
 * GET marketplace-service-providers/{uuid}/keys/ (what the site agent provisions): the SSH keys of the members
 * of every project that holds a live allocation of the provider's offerings.
 */
export async function listServiceProviderKeys(
  ctx: Context,
  uuid: string,
  args: SshKeyListArgs,
  query: SshKeyQuery = {},
): Promise<Connection<SshKey>> {
  ctx.requireViewer();
  const provider = await visibleOne(uuid, (id) => findUnique(ctx.db, "serviceProvider", { where: { id }, select: { customerId: true } }));
  await requireProviderRole(ctx, provider.customerId);
  const projectIds = await servedProjectIds(ctx, provider.customerId);
  const members = { user: { roles: { some: activeProjectMembership(projectIds, ctx.now()) } } };
  return listPage(ctx.db, "sshKey", SSH_KEY_CONTRACT, { visible: members, request: args, query }, ctx);
}
