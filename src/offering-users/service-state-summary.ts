import { providerScopesOf } from "./changes.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { canTransition } from "../platform/state-machine.ts";
import { listSelection, type OfferingUserFilter } from "./service.ts";
import { countVisibleByOfferingAndState } from "./tallies.ts";
import { OFFERING_USER_STATE_NAMES } from "./states.ts";
import { OFFERING_USER_OPERATIONS, OFFERING_USER_TRANSITIONS } from "./transitions.ts";
import { availableTransition } from "../graphql/transitions.ts";

/** The operations the record's state allows now, and whether the viewer may run them (one permission covers all). */
export async function availableTransitions(ctx: Context, ou: { state: OfferingUserState; offeringId: string; customerId: string }) {
  const permitted = await ctx.access.can(Permission.UPDATE_OFFERING_USER, providerScopesOf(ou));
  return OFFERING_USER_OPERATIONS.filter((operation) => canTransition(OFFERING_USER_TRANSITIONS[operation], ou.state)).map((operation) =>
    availableTransition(operation, OFFERING_USER_TRANSITIONS[operation], permitted),
  );
}

/**
 * How many offering users the viewer may see are in each state under a list filter: in all (every state, zeros
 * too) and per offering (the offerings that have any), from the tallies where the list's count would use them.
 */
export async function countOfferingUsersByState(ctx: Context, filter: OfferingUserFilter | null | undefined) {
  const { visibility, conditions } = await listSelection(ctx, filter);
  const perOffering = [...(await countVisibleByOfferingAndState(ctx, conditions, visibility))].filter(([, counts]) =>
    [...counts.values()].some((count) => count !== 0),
  );
  const total = (state: OfferingUserState) => perOffering.reduce((sum, [, counts]) => sum + (counts.get(state) ?? 0), 0);
  return {
    states: OFFERING_USER_STATE_NAMES.map((state) => ({ state, count: total(state) })),
    offerings: perOffering.map(([offeringId, counts]) => ({
      offeringId,
      states: OFFERING_USER_STATE_NAMES.map((state) => ({ state, count: counts.get(state) ?? 0 })),
    })),
  };
}
