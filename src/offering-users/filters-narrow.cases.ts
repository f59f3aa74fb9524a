import {
  alice, cutoff, empties, type NarrowingCases, offeringUrl, secondProvider, splits, storage, unmodelled, uuidOf,
} from "../../test/support/narrowing-cases.ts";

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/marketplace-offering-users/": {
    parameters: {
      state: splits("OK"), provider_uuid: uuidOf(secondProvider), offering_uuid: uuidOf(storage), offering: offeringUrl(storage),
      user_uuid: uuidOf(alice), username: splits("alice01"), user_username: splits("SPLIT.ALICE"),
      created: cutoff, created_after: cutoff, created_before: cutoff, modified: cutoff, modified_after: cutoff, modified_before: cutoff,
      is_restricted: splits("true"), runtime_state: splits("Pending account linking"), offering_slug: splits((d) => d.storage.slug),
      parent_offering_uuid: unmodelled, has_consent: splits("true"),
      // No offering requires profile attributes: every profile is complete.
      has_complete_profile: empties("false"),
      offering_has_active_tos: splits("true"), query: splits("alice"), stuck: splits("true"),
      consented_to_active_terms: splits("true"),
    },
  },
};
