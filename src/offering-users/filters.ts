import type { OfferingUserState, Prisma } from "../generated/prisma/client.ts";
import { fieldError } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { icontains, iexact } from "../platform/text-match.ts";

export interface OfferingUserFilter {
  state?: OfferingUserState[] | null;
  providerUuid?: string | null;
  offeringUuid?: string[] | null;
  userUuid?: string | null;
  username?: string | null;
  userUsername?: string | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
  modifiedAfter?: Date | null;
  modifiedBefore?: Date | null;
  isRestricted?: boolean | null;
  query?: string | null;
}

export const OFFERING_USER_ORDER = {
  CREATED_ASC: { created: "asc" },
  CREATED_DESC: { created: "desc" },
  MODIFIED_ASC: { modified: "asc" },
  MODIFIED_DESC: { modified: "desc" },
  // PostgreSQL's own null placement, which Waldur (Django) inherits: last ascending, first descending.
  USERNAME_ASC: { username: { sort: "asc", nulls: "last" } },
  USERNAME_DESC: { username: { sort: "desc", nulls: "first" } },
} as const satisfies Record<string, Prisma.OfferingUserOrderByWithRelationInput>;
export type OfferingUserOrder = keyof typeof OFFERING_USER_ORDER;

/** Waldur's default order is by username; created and id make pages stable. */
export function offeringUserOrderBy(order: OfferingUserOrder[] | null | undefined) {
  const chosen = order?.length ? order : (["USERNAME_ASC"] as const);
  return [...chosen.map((o) => OFFERING_USER_ORDER[o]), { created: "asc" as const }, { id: "asc" as const }];
}

function uuidOf(field: string, value: string): string {
  const uuid = parseUuid(value);
  if (!uuid) throw fieldError(field, "Enter a valid UUID.");
  return uuid;
}

export function offeringUserWhere(filter: OfferingUserFilter | null | undefined): Prisma.OfferingUserWhereInput[] {
  if (!filter) return [];
  const where: Prisma.OfferingUserWhereInput[] = [];
  const f = filter;
  if (f.state?.length) where.push({ state: { in: f.state } });
  if (f.providerUuid) where.push({ offering: { customerId: uuidOf("provider_uuid", f.providerUuid) } });
  if (f.offeringUuid?.length) where.push({ offeringId: { in: f.offeringUuid.map((u) => uuidOf("offering_uuid", u)) } });
  if (f.userUuid) where.push({ userId: uuidOf("user_uuid", f.userUuid) });
  if (f.username != null) where.push({ username: f.username });
  if (f.userUsername != null) where.push({ user: { username: iexact(f.userUsername) } });
  if (f.createdAfter) where.push({ created: { gte: f.createdAfter } });
  if (f.createdBefore) where.push({ created: { lt: f.createdBefore } });
  if (f.modifiedAfter) where.push({ modified: { gte: f.modifiedAfter } });
  if (f.modifiedBefore) where.push({ modified: { lt: f.modifiedBefore } });
  if (f.isRestricted != null) where.push({ isRestricted: f.isRestricted });
  if (f.query?.trim()) {
    const contains = icontains(f.query.trim());
    where.push({
      OR: [
        { username: contains },
        { offering: { name: contains } },
        { user: { OR: [{ firstName: contains }, { lastName: contains }, { username: contains }] } },
      ],
    });
  }
  return where;
}
