import { builder } from "../graphql/builder.ts";
import { findUniqueOrThrow } from "../platform/reads/sql/find.ts";
import { allocatingProjectIds } from "./service-projects.ts";
import { stuckSince } from "./stuck.ts";

/** What an operator watching offering users needs beside the record: how long it has waited, whether it is stuck, where it comes from. */
builder.prismaObjectFields("OfferingUser", (t) => ({
  stateChangedAt: t.expose("stateChangedAt", { type: "DateTime", description: "When the record entered its state (its creation, or the change to it)" }),
  stuckSince: t.field({
    type: "DateTime",
    nullable: true,
    description: "When the record outlived its state's threshold (OFFERING_USER_STUCK_*_MINUTES); null unless it is stuck now",
    select: { state: true, stateChangedAt: true },
    resolve: (ou, _args, ctx) => stuckSince(ou, ctx.config.offeringUserStuckAfterMinutes, ctx.now()),
  }),
  stuck: t.boolean({
    description: "Held in Creating, Error creating or Pending additional validation beyond its configured threshold",
    select: { state: true, stateChangedAt: true },
    resolve: (ou, _args, ctx) => stuckSince(ou, ctx.config.offeringUserStuckAfterMinutes, ctx.now()) !== null,
  }),
  projects: t.prismaField({
    type: ["Project"],
    description: "The projects whose live allocations of the offering give the user this account (a role there, or owning its organisation)",
    select: { userId: true, offeringId: true },
    resolve: async (query, ou, _args, ctx) => {
      const ids = (await allocatingProjectIds(ctx)({ userId: ou.userId, offeringId: ou.offeringId })) ?? [];
      return Promise.all(ids.map((id) => findUniqueOrThrow(ctx.db, "project", { ...query, where: { id } })));
    },
  }),
}));
