import type { OfferingUserState, Prisma } from "../generated/prisma/client.ts";
import type { StuckSettings } from "../platform/settings/stuck-settings.ts";

/**
 * A record stuck: held in a state that needs someone's attention (its account being created, failed to be created,
 * or awaiting a person's validation) for longer than that state's threshold (OFFERING_USER_STUCK_*_MINUTES).
 */
type Thresholds = StuckSettings["offeringUserStuckAfterMinutes"];

const WATCHED = ["CREATING", "ERROR_CREATING", "PENDING_ADDITIONAL_VALIDATION"] as const satisfies ReadonlyArray<keyof Thresholds & OfferingUserState>;

const MINUTE_MS = 60_000;

const thresholdOf = (state: OfferingUserState, thresholds: Thresholds) => {
  const watched = WATCHED.find((each) => each === state);
  return watched ? thresholds[watched] : 0;
};

/** When the record became stuck (the moment its state outlived its threshold), or null while it is not stuck. */
export function stuckSince(record: { state: OfferingUserState; stateChangedAt: Date }, thresholds: Thresholds, now: Date): Date | null {
  const minutes = thresholdOf(record.state, thresholds);
  if (!minutes) return null;
  const since = new Date(record.stateChangedAt.getTime() + minutes * MINUTE_MS);
  return since < now ? since : null;
}

/** The records stuck now (`stuck`), or those that are not. */
export function stuckWhere(stuck: boolean, thresholds: Thresholds, now: Date): Prisma.OfferingUserWhereInput {
  const watched = WATCHED.filter((state) => thresholds[state] > 0).map((state) => ({
    state,
    stateChangedAt: { lt: new Date(now.getTime() - thresholds[state] * MINUTE_MS) },
  }));
  if (!watched.length) return stuck ? { id: { in: [] } } : {};
  return stuck ? { OR: watched } : { NOT: { OR: watched } };
}
