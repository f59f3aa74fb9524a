import type { OrderState, OrderType, Prisma } from "../generated/prisma/client.ts";
import { icontains } from "../platform/text-match.ts";
import { uuidOf } from "../resources/filters.ts";

export interface OrderFilter {
  state?: OrderState[] | null;
  type?: OrderType[] | null;
  offeringUuid?: string[] | null;
  offeringType?: string[] | null;
  providerUuid?: string | null;
  customerUuid?: string | null;
  projectUuid?: string | null;
  resourceUuid?: string | null;
  resourceName?: string | null;
  createdAfter?: Date | null;
  modifiedAfter?: Date | null;
}

export const ORDER_ORDER = {
  CREATED_ASC: { created: "asc" },
  CREATED_DESC: { created: "desc" },
  CONSUMER_REVIEWED_AT_ASC: { consumerReviewedAt: { sort: "asc", nulls: "last" } },
  CONSUMER_REVIEWED_AT_DESC: { consumerReviewedAt: { sort: "desc", nulls: "first" } },
  STATE_ASC: { state: "asc" },
  STATE_DESC: { state: "desc" },
} as const satisfies Record<string, Prisma.OrderOrderByWithRelationInput>;
export type OrderOrder = keyof typeof ORDER_ORDER;

/** Waldur's default is newest first; the id makes pages stable. */
export const orderOrderBy = (order: OrderOrder[] | null | undefined) => [
  ...(order?.length ? order : (["CREATED_DESC"] as const)).map((o) => ORDER_ORDER[o]),
  { id: "asc" as const },
];

export function orderWhere(f: OrderFilter | null | undefined): Prisma.OrderWhereInput[] {
  if (!f) return [];
  const where: Prisma.OrderWhereInput[] = [];
  if (f.state?.length) where.push({ state: { in: f.state } });
  if (f.type?.length) where.push({ type: { in: f.type } });
  if (f.offeringUuid?.length) where.push({ offeringId: { in: f.offeringUuid.map((u) => uuidOf("offering_uuid", u)) } });
  if (f.offeringType?.length) where.push({ offering: { type: { in: f.offeringType } } });
  if (f.providerUuid) where.push({ offering: { customerId: uuidOf("provider_uuid", f.providerUuid) } });
  if (f.customerUuid) where.push({ project: { customerId: uuidOf("customer_uuid", f.customerUuid) } });
  if (f.projectUuid) where.push({ projectId: uuidOf("project_uuid", f.projectUuid) });
  if (f.resourceUuid) where.push({ resourceId: uuidOf("resource_uuid", f.resourceUuid) });
  if (f.resourceName) where.push({ resource: { name: icontains(f.resourceName) } });
  if (f.createdAfter) where.push({ created: { gte: f.createdAfter } });
  if (f.modifiedAfter) where.push({ modified: { gte: f.modifiedAfter } });
  return where;
}
