import { transitionErrorOf } from "../platform/errors.ts";
import type { OfferingState } from "../generated/prisma/client.ts";
import type { ExposedTransition } from "../graphql/transitions.ts";

/** Offering activation (Waldur's `activate` action), and the mutation that runs it. */
export const OFFERING_TRANSITIONS = {
  activate: { mutation: "activateOffering", from: ["DRAFT", "PAUSED"], to: "ACTIVE" },
} as const satisfies Record<string, ExposedTransition<OfferingState>>;

/** How offerings refuse an action from a state their table does not allow. */
export class OfferingTransitionError extends transitionErrorOf<OfferingState>() {}
