/**
 * How long an offering user may stay in a state that needs someone's attention before the API calls it stuck, in
 * minutes per state; 0 never calls that state stuck. Keyed by the state's GraphQL name.
 */
export interface StuckSettings {
  offeringUserStuckAfterMinutes: {
    CREATING: number;
    ERROR_CREATING: number;
    PENDING_ADDITIONAL_VALIDATION: number;
  };
}

type StuckState = keyof StuckSettings["offeringUserStuckAfterMinutes"];

/** Each state's variable and default: an account is created within minutes, a validation by a person within days. */
export const STUCK_THRESHOLDS: Record<StuckState, { variable: string; minutes: number }> = {
  CREATING: { variable: "OFFERING_USER_STUCK_CREATING_MINUTES", minutes: 60 },
  ERROR_CREATING: { variable: "OFFERING_USER_STUCK_ERROR_CREATING_MINUTES", minutes: 60 },
  PENDING_ADDITIONAL_VALIDATION: { variable: "OFFERING_USER_STUCK_PENDING_ADDITIONAL_VALIDATION_MINUTES", minutes: 3 * 24 * 60 },
};

function minutes(env: NodeJS.ProcessEnv, { variable, minutes: fallback }: { variable: string; minutes: number }): number {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${variable} must be a whole number of minutes (0: never stuck), not "${raw}"`);
  return value;
}

export function loadStuckSettings(env: NodeJS.ProcessEnv = process.env): StuckSettings {
  const after = (state: StuckState) => minutes(env, STUCK_THRESHOLDS[state]);
  return {
    offeringUserStuckAfterMinutes: {
      CREATING: after("CREATING"),
      ERROR_CREATING: after("ERROR_CREATING"),
      PENDING_ADDITIONAL_VALIDATION: after("PENDING_ADDITIONAL_VALIDATION"),
    },
  };
}
