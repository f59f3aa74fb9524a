import {
  customerUrl, cutoff, empties, type NarrowingCases, offeringManager, offeringUrl, resourceUrl, secondProvider, splits, storage, unmodelled, uuidOf,
  vintageLab, vintageProject,
} from "../../test/support/narrowing-cases.ts";

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/marketplace-provider-resources/": {
    parameters: {
      state: splits("Terminated"), order_state: splits("pending-provider"), offering_uuid: uuidOf(storage), offering: offeringUrl(storage),
      offering_slug: splits((d) => d.storage.slug), offering_type: splits("Marketplace.Basic"),
      offering_billable: empties("false"), offering_shared: empties("false"), parent_offering_uuid: unmodelled, category_uuid: unmodelled,
      plan_uuid: uuidOf((d) => d.plan), project_uuid: uuidOf(vintageProject), project_name: splits("Vintage project"),
      customer_uuid: uuidOf(vintageLab), customer: customerUrl(vintageLab), provider_uuid: uuidOf(secondProvider),
      service_manager_uuid: uuidOf(offeringManager), scope: resourceUrl((d) => d.resources.compute),
      name: splits("beta"), name_exact: splits("beta-storage"), slug: splits((d) => d.resources.bucket.slug), backend_id: splits("b-alpha"),
      query: splits("beta"), runtime_state: splits("ACTIVE"), flavor_name: splits("large"), image_name: splits("ubuntu"), is_attached: splits("true"),
      resource_attributes: splits('{"partition": "gpu"}'), lexis_links_supported: splits("true"), restrict_member_access: splits("true"),
      paused: splits("true"), downscaled: splits("true"), has_terminate_date: splits("true"),
      usage_based: splits("true"), limit_based: splits("true"),
      only_usage_based: splits("true"), only_limit_based: splits("true"), component_count: splits("2"), limit_component_count: splits("1"),
      visible_to_username: splits("projectMember"), visible_to_providers: splits("true"),
      created: cutoff, created_before: cutoff, modified: cutoff, modified_before: cutoff,
    },
  },
};
