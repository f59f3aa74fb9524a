import { Role } from "../auth/permissions.ts";
import type { OrderState, Prisma } from "../generated/prisma/client.ts";

/** The states of a Create order the consumer side has approved, or the provider has taken up. */
export const TAKEN_UP: readonly OrderState[] = ["PENDING_PROVIDER", "PENDING_START_DATE", "EXECUTING", "DONE", "ERRED"];

/** A Create order that got past the consumer's approval, whatever became of it since. */
const APPROVED_CREATE_ORDER: Prisma.OrderWhereInput = {
  type: "CREATE",
  OR: [
    { state: { in: [...TAKEN_UP] } },
    { state: "REJECTED", providerReviewedAt: { not: null } },
    { state: "CANCELED", consumerReviewedAt: { not: null } },
  ],
};

/**
 * Resources whose project's members the provider may learn: those whose Create order got past the consumer's
 * approval, and those that came without one (imported). An order nobody on the consumer side approved, or one
 * rejected, cancelled or withdrawn before that, leaves no trace of the members with the provider.
 */
export const APPROVED_RESOURCES: Prisma.ResourceWhereInput = {
  OR: [{ orders: { some: APPROVED_CREATE_ORDER } }, { state: { not: "CREATING" }, orders: { none: { type: "CREATE" } } }],
};

/** Resources that bring their project's members to the provider (Waldur's eligible resources): its live allocations. */
export const ALLOCATIONS: Prisma.ResourceWhereInput = { AND: [{ state: { not: "TERMINATED" } }, APPROVED_RESOURCES] };

/** The roles that connect a user to a resource: any role in its project, or ownership of the project's customer. */
export const CONNECTING_GRANTS: Prisma.RoleGrantWhereInput[] = [
  { scopeType: "PROJECT" },
  { scopeType: "CUSTOMER", role: Role.CUSTOMER_OWNER },
];

export const unexpired = (now: Date): Prisma.RoleGrantWhereInput => ({
  isActive: true,
  OR: [{ expirationTime: null }, { expirationTime: { gt: now } }],
});

/** A user and an offering, which an offering user is the account of. */
export interface AccessPair {
  userId: string;
  offeringId: string;
}

export const pairKey = (pair: AccessPair) => `${pair.userId}:${pair.offeringId}`;
