import { builder } from "../graphql/builder.ts";
import { transitionFailure } from "../graphql/errors.ts";
import { availableTransitionType } from "../graphql/transitions.ts";
import { OfferingUserTransitionError } from "./transitions.ts";
import { toHex } from "../platform/ids.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { OfferingUserFilterInput, OfferingUserStateEnum } from "./schema.ts";
import { availableTransitions, countOfferingUsersByState } from "./service-state-summary.ts";
import { findUnique } from "../platform/reads/sql/find.ts";

transitionFailure(OfferingUserTransitionError, "OfferingUser", OfferingUserStateEnum);
const OfferingUserAvailableTransitionRef = availableTransitionType("OfferingUser", OfferingUserStateEnum);

builder.prismaObjectField("OfferingUser", "availableTransitions", (t) =>
  t.field({
    type: [OfferingUserAvailableTransitionRef],
    description: "The operations the state allows now, and whether the viewer may run each",
    resolve: (ou, _args, ctx) => availableTransitions(ctx, ou),
  }),
);

const StateCountRef = builder.objectRef<{ state: OfferingUserState; count: number }>("OfferingUserStateCount").implement({
  fields: (t) => ({ state: t.expose("state", { type: OfferingUserStateEnum }), count: t.exposeInt("count") }),
});

const OfferingCountsRef = builder.objectRef<{ offeringId: string; states: Array<{ state: OfferingUserState; count: number }> }>("OfferingUserCountsOfOffering").implement({
  fields: (t) => ({
    offeringUuid: t.string({ resolve: (c) => toHex(c.offeringId) }),
    offering: t.prismaField({
      type: "Offering",
      nullable: true,
      resolve: (query, c, _args, ctx) => findUnique(ctx.db, "offering", { ...query, where: { id: c.offeringId } }),
    }),
    states: t.field({ type: [StateCountRef], resolve: (c) => c.states }),
  }),
});

const CountsRef = builder.objectRef<Awaited<ReturnType<typeof countOfferingUsersByState>>>("OfferingUserCounts").implement({
  description: "Offering users per state, in all and per offering, under the list's filter",
  fields: (t) => ({
    states: t.field({ type: [StateCountRef], description: "Every state, zeros included", resolve: (c) => c.states }),
    offerings: t.field({ type: [OfferingCountsRef], description: "Each offering that has offering users under the filter", resolve: (c) => c.offerings }),
  }),
});

builder.queryField("offeringUserCounts", (t) =>
  t.field({
    type: CountsRef,
    description: "What a dashboard shows as live counts: one grouped query instead of a count per state",
    args: { filter: t.arg({ type: OfferingUserFilterInput }) },
    resolve: (_root, args, ctx) => countOfferingUsersByState(ctx, args.filter),
  }),
);
