import {
  type Case, customerUrl, CUTOFF, cutoff, empties, inert, type NarrowingCases, NO_SUCH_UUID, offeringManager, projectMember, secondProvider, splits,
  splitsAsViewer, unmodelled, unstored, uuidOf, vintageLab, worldProject,
} from "../../test/support/narrowing-cases.ts";

const OFFERINGS: Record<string, Case> = {
  customer: customerUrl(secondProvider), customer_uuid: uuidOf(secondProvider), uuid_list: uuidOf((d) => d.hpc),
  type: splits("Marketplace.Basic"), state: splits("Draft"), name: splits("storage"), name_exact: splits("Object Storage"),
  slug: splits((d) => d.storage.slug), description: splits("durable"), keyword: splits("second"), query: splits("vintage"),
  created: cutoff, created_before: cutoff, modified: cutoff, modified_before: cutoff,
  has_terms_of_service: splits("true"), has_active_terms_of_service: splits("true"), user_has_consent: splits("true"),
  user_has_offering_user: splits("true"), can_create_offering_user: splits("true"), accessible: splits("true"),
  // Every offering is shared, so every customer may order all of them: only a customer that does not exist narrows.
  allowed_customer_uuid: empties(NO_SUCH_UUID),
  service_manager_uuid: uuidOf(offeringManager),
  // Every offering is shared, so every project may order all of them: only a project that does not exist narrows.
  project_uuid: empties(NO_SUCH_UUID),
  consumer_customer_uuid: uuidOf((d) => d.world.consumer), resource_customer_uuid: uuidOf((d) => d.world.consumer),
  resource_project_uuid: uuidOf(worldProject),
  shared: empties("false"), billable: empties("false"), accessible_via_calls: empties("true"), open_for_proposals: empties("true"),
  importable: empties("true"), attributes: empties('{"size": 1}'), tags_and: unmodelled, tag_names_and: empties("gpu"), tag_name: empties("gpu"),
  tag: unmodelled, category_uuid: unmodelled, category_group_uuid: unmodelled, offering_group_uuid: unmodelled,
  organization_group_uuid: unmodelled, parent_uuid: unmodelled, scope_uuid: unmodelled,
};

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/users/": {
    parameters: {
      username: splits("split.alice"), username_list: splits("split.alice,split.bob"), email: splits("ALICE@split.example"),
      full_name: splits("alice arch"), query: splits("archer"), user_keyword: splits("archer"),
      is_active: splits("false"), is_staff: splits("true"), is_support: splits("true"),
      date_joined: cutoff, modified: cutoff, agreement_date: empties(CUTOFF),
      // Every user's registration method is "default".
      registration_method: empties("saml"),
      civil_number: unstored, description: unstored, job_title: unstored, native_name: unstored, organization: unstored, phone_number: unstored,
      customer_uuid: uuidOf(vintageLab), project_uuid: uuidOf(worldProject),
      organization_roles: splits("CUSTOMER.OWNER"), project_roles: splits("PROJECT.ADMIN"),
    },
  },
  "/api/customers/": {
    parameters: {
      name: splits("vintage"), name_exact: splits("Vintage Lab"), abbreviation: splits("sec"), slug: splits((d) => d.secondProvider.slug),
      query: splits("vintage"), native_name: unstored, contact_details: unstored, agreement_number: unstored, registration_code: unstored,
      backend_id: unstored, organization_group_name: unstored, organization_group_uuid: unmodelled,
      archived: empties("true"), is_call_managing_organization: empties("true"),
      is_service_provider: splits("true"), service_provider_uuid: uuidOf((d) => d.serviceProvider2), has_resources: splits("true"),
      // Accounting starts when a customer is created: no customer's is still ahead.
      accounting_is_running: empties("false"),
      user_uuid: uuidOf(projectMember),
      owned_by_current_user: splitsAsViewer("true"), current_user_has_role: splitsAsViewer("CUSTOMER.OWNER"),
      current_user_has_project_create_permission: splitsAsViewer("true"),
    },
  },
  "/api/projects/": {
    parameters: {
      customer: customerUrl(vintageLab), customer_uuid: uuidOf(vintageLab), name: splits("vintage"), name_exact: splits("Vintage project"),
      slug: splits((d) => d.vintageProject.slug), description: splits("climate"), customer_name: splits("vintage"),
      customer_abbreviation: splits("VL"), customer_native_name: unstored, backend_id: unstored,
      created: cutoff, created_before: cutoff, modified: cutoff, modified_before: cutoff, query: splits("vintage"),
      can_manage: splitsAsViewer("true"), can_admin: splitsAsViewer("true"), current_user_has_role: splitsAsViewer("PROJECT.ADMIN"),
      user_uuid: uuidOf(projectMember), user_uuid_with_active_role: uuidOf(projectMember),
      conceal_finished_projects: splits("true"), accounting_is_running: empties("false"),
      include_terminated: inert("false", "projects are never soft-deleted here, so the list is the same either way (as the contract says)"),
      is_removed: empties("true"), has_affiliation: empties("true"), affiliation_name: unstored, affiliation_uuid: unmodelled,
      science_domain_uuid: unmodelled, science_sub_domain_uuid: unmodelled,
    },
  },
  "/api/marketplace-service-providers/": {
    parameters: {
      customer_uuid: uuidOf(secondProvider), customer: customerUrl(secondProvider), customer_keyword: splits("second"),
    },
  },
  "/api/marketplace-provider-offerings/": { parameters: OFFERINGS },
  "/api/marketplace-provider-offerings/:uuid/list_project_service_accounts/": {
    parameters: OFFERINGS,
    picksFrom: "/api/marketplace-provider-offerings/",
  },
  "/api/marketplace-provider-offerings/:uuid/list_course_accounts/": {
    parameters: OFFERINGS,
    picksFrom: "/api/marketplace-provider-offerings/",
  },
};
