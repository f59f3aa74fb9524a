import { alice, type NarrowingCases, offeringUrl, splits, storage, userUrl, uuidOf } from "../../test/support/narrowing-cases.ts";

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/marketplace-offering-terms-of-service/": {
    parameters: {
      offering_uuid: uuidOf(storage), offering: offeringUrl(storage),
      is_active: splits("true"), version: splits("2.0"), requires_reconsent: splits("true"),
    },
  },
  "/api/marketplace-user-offering-consents/": {
    parameters: {
      user_uuid: uuidOf(alice), user: userUrl(alice), offering_uuid: uuidOf(storage), offering: offeringUrl(storage),
      version: splits("2.0"), has_consent: splits("true"), requires_reconsent: splits("true"),
    },
  },
};
