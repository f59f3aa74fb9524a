import type { OfferingUserState } from "../generated/prisma/client.ts";

/** Waldur's database integer and display label for each state; the API shows labels. */
export const OFFERING_USER_STATES: Record<OfferingUserState, { code: number; label: string }> = {
  CREATION_REQUESTED: { code: 1, label: "Requested" },
  CREATING: { code: 2, label: "Creating" },
  PENDING_ACCOUNT_LINKING: { code: 3, label: "Pending account linking" },
  PENDING_ADDITIONAL_VALIDATION: { code: 4, label: "Pending additional validation" },
  OK: { code: 5, label: "OK" },
  DELETION_REQUESTED: { code: 6, label: "Requested deletion" },
  DELETING: { code: 7, label: "Deleting" },
  DELETED: { code: 8, label: "Deleted" },
  ERROR_CREATING: { code: 9, label: "Error creating" },
  ERROR_DELETING: { code: 10, label: "Error deleting" },
};

/** Every state, in the order of the table. */
export const OFFERING_USER_STATE_NAMES = Object.keys(OFFERING_USER_STATES) as OfferingUserState[];

export const stateLabel = (state: OfferingUserState) => OFFERING_USER_STATES[state].label;

const BY_LABEL = new Map(
  Object.entries(OFFERING_USER_STATES).map(([state, { label }]) => [label, state as OfferingUserState]),
);

export const stateFromLabel = (label: string) => BY_LABEL.get(label);
export const STATE_LABELS = [...BY_LABEL.keys()];
