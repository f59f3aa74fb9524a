import { builder } from "../graphql/builder.ts";
import { findUniqueOrThrow } from "../platform/reads/sql/find.ts";
import { componentUsageCollection } from "./schema.ts";
import { type ComponentUsageTotal, componentUsageTotals } from "./service-totals.ts";

const ComponentUsageTotalRef = builder.objectRef<ComponentUsageTotal>("ComponentUsageTotal").implement({
  description: "The usage reported for one component of an offering, summed over the reports a filter selects",
  fields: (t) => ({
    offering: t.prismaField({
      type: "Offering",
      resolve: (query, total, _args, ctx) => findUniqueOrThrow(ctx.db, "offering", { ...query, where: { id: total.offeringId } }),
    }),
    type: t.exposeString("type"),
    name: t.exposeString("name"),
    measuredUnit: t.exposeString("measuredUnit"),
    usage: t.exposeFloat("usage"),
    resourceCount: t.exposeInt("resourceCount", { description: "The resources reporting it" }),
  }),
});

builder.queryField("componentUsageTotals", (t) =>
  t.field({
    type: [ComponentUsageTotalRef],
    description: "Usage summed per offering component over the component usages the filter selects (e.g. one billing period)",
    args: { filter: t.arg({ type: componentUsageCollection.Filter }) },
    resolve: (_root, { filter }, ctx) => componentUsageTotals(ctx, filter),
  }),
);
