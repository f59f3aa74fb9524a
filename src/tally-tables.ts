import { EVENT_AUDIENCE_TALLIES, EVENT_TALLIES, EVENT_USER_TALLIES } from "./events/tallies.ts";
import { OFFERING_USER_TALLIES } from "./offering-users/tallies.ts";

/** Every tally table (src/platform/database/tallies.ts): the gateway folds them, the tests and the bench read their totals. */
export const TALLY_TABLES = [OFFERING_USER_TALLIES, EVENT_TALLIES, EVENT_AUDIENCE_TALLIES, EVENT_USER_TALLIES];
