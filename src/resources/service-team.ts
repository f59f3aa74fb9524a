import type { Context } from "../context.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { type ConsentStatus, consentStatusOf } from "../terms-of-service/consent-status.ts";
import { getResource } from "./service.ts";
import { APPROVED_RESOURCES } from "../offering-users/allocated-resources.ts";
import { count, findMany } from "../platform/reads/sql/find.ts";

export interface TeamMember {
  userId: string;
  username: string;
  fullName: string;
  email: string;
  role: string;
  expirationTime: Date | null;
  offeringUserUsername: string | null;
  offeringUserState: OfferingUserState | null;
}

/**
 * Waldur's `team/`: who holds a current role in the resource's project, with the username their offering user
 * has on the resource's offering (null before the provider sets one); nobody while its Create order has not got past
 * the consumer's approval (offering-users/allocated-resources.ts). Not paginated, as in Waldur: the agent reads the
 * whole team in one call. With ENFORCE_USER_CONSENT_FOR_OFFERINGS, members without a current consent to
 * the offering's active terms are left out (staff and support still see the whole team), so the agent does not give
 * them an account. `hasConsent` keeps only the members who may use the offering as far as its terms go (no active
 * terms, or a current consent), or, false, only the others.
 */
export async function resourceTeam(ctx: Context, uuid: string, hasConsent?: boolean | null): Promise<TeamMember[]> {
  const resource = await getResource(ctx, "PROVIDER", uuid, { select: { id: true, projectId: true, offeringId: true } });
  if (!ctx.access.readsAll && !(await count(ctx.db, "resource", { AND: [{ id: resource.id }, APPROVED_RESOURCES] }))) return [];
  const now = ctx.now();
  const where = {
    scopeType: "PROJECT" as const,
    scopeId: resource.projectId,
    isActive: true,
    OR: [{ expirationTime: null }, { expirationTime: { gt: now } }],
  };
  const grants = await findMany(ctx.db, "roleGrant", {
      where,
      orderBy: [{ user: { username: "asc" } }, { role: "asc" }, { id: "asc" }],
      select: {
        role: true,
        expirationTime: true,
        user: {
          select: {
            id: true,
            username: true,
            firstName: true,
            lastName: true,
            email: true,
            offeringUsers: { where: { offeringId: resource.offeringId }, select: { username: true, state: true } },
          },
        },
      },
    });
  // One row per user, as Waldur lists the project's users with one of their roles.
  const firstGrants = grants.filter((grant, i) => grants.findIndex((other) => other.user.id === grant.user.id) === i);
  const members = firstGrants.map(({ role, expirationTime, user }) => ({
    userId: user.id,
    username: user.username,
    fullName: `${user.firstName} ${user.lastName}`.trim(),
    email: user.email,
    role,
    expirationTime,
    offeringUserUsername: user.offeringUsers[0]?.username ?? null,
    offeringUserState: user.offeringUsers[0]?.state ?? null,
  }));
  const enforced = ctx.config.enforceUserConsent && !ctx.access.readsAll;
  if (!enforced && hasConsent == null) return members;
  const statuses = await Promise.all(members.map((m) => consentStatusOf(ctx, m.userId, resource.offeringId)));
  return members.filter((_m, i) => {
    const consented = mayUseOffering(statuses[i]);
    return (!enforced || consented) && (hasConsent == null || consented === hasConsent);
  });
}

const mayUseOffering = (status: ConsentStatus) => status !== "MISSING" && status !== "EXPIRED";
