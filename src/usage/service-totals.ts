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
  const groups = await ctx.db.componentUsage.groupBy({ by: ["componentId"], where, _sum: { usage: true }, _count: { resourceId: true } });
  if (!groups.length) return [];
  const components = await findMany(ctx.db, "offeringComponent", {
    where: { id: { in: groups.map((group) => group.componentId) } },
    select: { id: true, offeringId: true, type: true, name: true, measuredUnit: true },
  });
  const componentOf = new Map(components.map((component) => [component.id, component]));
  return groups
    .flatMap((group) => {
      const component = componentOf.get(group.componentId);
      if (!component) return [];
      const { id: _id, ...described } = component;
      return [{ ...described, usage: Number(group._sum.usage ?? 0), resourceCount: group._count.resourceId }];
    })
    .sort((a, b) => a.offeringId.localeCompare(b.offeringId) || a.type.localeCompare(b.type));
}
