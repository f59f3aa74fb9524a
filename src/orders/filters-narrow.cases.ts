import {
  bucket, cutoff, empties, type NarrowingCases, offeringManager, offeringUrl, resourceUrl, secondProvider, splits, storage, unmodelled, unstored,
  uuidOf, vintageLab, vintageProject,
} from "../../test/support/narrowing-cases.ts";

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/marketplace-orders/": {
    parameters: {
      state: splits("done"), type: splits("Terminate"), offering_uuid: uuidOf(storage), offering: offeringUrl(storage),
      offering_slug: splits((d) => d.storage.slug), offering_type: splits("Marketplace.Basic"), parent_offering_uuid: unmodelled,
      category_uuid: unmodelled, provider_uuid: uuidOf(secondProvider), customer_uuid: uuidOf(vintageLab), project_uuid: uuidOf(vintageProject),
      service_manager_uuid: uuidOf(offeringManager), resource_uuid: uuidOf(bucket), resource: resourceUrl(bucket),
      resource_name: splits("beta"), query: splits("beta"), slug: unstored,
      created: cutoff, created_before: cutoff, modified: cutoff, modified_before: cutoff,
      can_approve_as_consumer: splits("true"), can_approve_as_provider: splits("true"), was_auto_approved: empties("true"),
    },
  },
};
