import { cutoff, type NarrowingCases, splits, storage, uuidOf } from "../../test/support/narrowing-cases.ts";

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/marketplace-site-agent-identities/": {
    parameters: {
      name: splits("storage-agent"), offering_uuid: uuidOf(storage), version: splits("0.6.0"), last_restarted: cutoff, orphaned: splits("true"),
    },
  },
};
