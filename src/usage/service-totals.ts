import type { Context } from "../context.ts";
import type { FilterValues } from "../collections/contract.ts";
import { findMany } from "../platform/reads/sql/find.ts";
import { COMPONENT_USAGE_CONTRACT } from "./contract.ts";
import { visibleComponentUsages } from "./visibility.ts";

export interface ComponentUsageTotal {
  offeringId: string;
  type: string;
  name: string;
  measuredUnit: string;
  usage: number;
  resourceCount: number;
}

/**
 * The usage the viewer may see summed per component (so per offering), under the component usages' filters: one
 * grouped statement and one for the components, however many reports there are.
 */
export async function componentUsageTotals(ctx: Context, filter: FilterValues<typeof COMPONENT_USAGE_CONTRACT> | null | undefined): Promise<ComponentUsageTotal[]> {
  const where = { AND: [await visibleComponentUsages(ctx), ...(await COMPONENT_USAGE_CONTRACT.where(filter, ctx))] };
  // Per component and resource, so that a resource reporting in several periods counts once.
  const groups = await ctx.db.componentUsage.groupBy({ by: ["componentId", "resourceId"], where, _sum: { usage: true } });
  if (!groups.length) return [];
  const sums = new Map<string, { usage: number; resourceCount: number }>();
  for (const group of groups) {
    const sum = sums.get(group.componentId) ?? { usage: 0, resourceCount: 0 };
    sums.set(group.componentId, { usage: sum.usage + Number(group._sum.usage ?? 0), resourceCount: sum.resourceCount + 1 });
  }
  const components = await findMany(ctx.db, "offeringComponent", {
    where: { id: { in: [...sums.keys()] } },
    select: { id: true, offeringId: true, type: true, name: true, measuredUnit: true },
  });
  return components
    .map(({ id, ...described }) => ({ ...described, usage: 0, resourceCount: 0, ...sums.get(id) }))
    .sort((a, b) => a.offeringId.localeCompare(b.offeringId) || a.type.localeCompare(b.type));
}
