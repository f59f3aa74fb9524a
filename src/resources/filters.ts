import type { Prisma, ResourceState } from "../generated/prisma/client.ts";
import { fieldError } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { icontains } from "../platform/text-match.ts";

export interface ResourceFilter {
  state?: ResourceState[] | null;
  offeringUuid?: string[] | null;
  projectUuid?: string | null;
  customerUuid?: string | null;
  providerUuid?: string | null;
  name?: string | null;
  nameExact?: string | null;
  backendId?: string | null;
  restrictMemberAccess?: boolean | null;
  paused?: boolean | null;
  downscaled?: boolean | null;
  createdAfter?: Date | null;
  modifiedAfter?: Date | null;
}

export const RESOURCE_ORDER = {
  CREATED_ASC: { created: "asc" },
  CREATED_DESC: { created: "desc" },
  END_DATE_ASC: { endDate: { sort: "asc", nulls: "last" } },
  END_DATE_DESC: { endDate: { sort: "desc", nulls: "first" } },
  NAME_ASC: { name: "asc" },
  NAME_DESC: { name: "desc" },
  PROJECT_NAME_ASC: { project: { name: "asc" } },
  PROJECT_NAME_DESC: { project: { name: "desc" } },
  STATE_ASC: { state: "asc" },
  STATE_DESC: { state: "desc" },
} as const satisfies Record<string, Prisma.ResourceOrderByWithRelationInput>;
export type ResourceOrder = keyof typeof RESOURCE_ORDER;

/** Waldur's default is newest first; the id makes pages stable. */
export const resourceOrderBy = (order: ResourceOrder[] | null | undefined) => [
  ...(order?.length ? order : (["CREATED_DESC"] as const)).map((o) => RESOURCE_ORDER[o]),
  { id: "asc" as const },
];

export function uuidOf(field: string, value: string): string {
  const uuid = parseUuid(value);
  if (!uuid) throw fieldError(field, "Enter a valid UUID.");
  return uuid;
}

export function resourceWhere(f: ResourceFilter | null | undefined): Prisma.ResourceWhereInput[] {
  if (!f) return [];
  const where: Prisma.ResourceWhereInput[] = [];
  if (f.state?.length) where.push({ state: { in: f.state } });
  if (f.offeringUuid?.length) where.push({ offeringId: { in: f.offeringUuid.map((u) => uuidOf("offering_uuid", u)) } });
  if (f.projectUuid) where.push({ projectId: uuidOf("project_uuid", f.projectUuid) });
  if (f.customerUuid) where.push({ project: { customerId: uuidOf("customer_uuid", f.customerUuid) } });
  if (f.providerUuid) where.push({ offering: { customerId: uuidOf("provider_uuid", f.providerUuid) } });
  if (f.name) where.push({ name: icontains(f.name) });
  if (f.nameExact != null) where.push({ name: f.nameExact });
  if (f.backendId != null) where.push({ backendId: f.backendId });
  for (const flag of ["restrictMemberAccess", "paused", "downscaled"] as const) {
    if (f[flag] != null) where.push({ [flag]: f[flag] });
  }
  if (f.createdAfter) where.push({ created: { gte: f.createdAfter } });
  if (f.modifiedAfter) where.push({ modified: { gte: f.modifiedAfter } });
  return where;
}
