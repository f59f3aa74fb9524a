import {
  bucket, type Case, type NarrowingCases, projectMember, resourceUrl, splits, storage, userUrl, uuidOf, vintageLab, vintageProject, vintageRun,
} from "../../test/support/narrowing-cases.ts";

const USAGE_REPORTS: Record<string, Case> = {
  resource_uuid: uuidOf(vintageRun), resource: resourceUrl(vintageRun), offering_uuid: uuidOf((d) => d.archived),
  project_uuid: uuidOf(vintageProject), customer_uuid: uuidOf(vintageLab), type: splits("ram"),
  billing_period_year: splits("2023"), billing_period_month: splits("2"), date_after: splits("2024-02-01"), date_before: splits("2024-01-31"),
};

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/marketplace-component-usages/": {
    parameters: {
      ...USAGE_REPORTS, billing_period: splits("2024-02-01"), missing_usage_policy: splits("reuse"),
    },
  },
  "/api/marketplace-component-user-usages/": {
    parameters: {
      ...USAGE_REPORTS, component_usage__billing_period: splits("2024-02-01"), username: splits("alice"),
    },
  },
  "/api/component-user-usage-limits/": {
    parameters: {
      resource_uuid: uuidOf(bucket), resource: resourceUrl(bucket), offering_uuid: uuidOf(storage), component_uuid: uuidOf((d) => d.components.ram),
      component_type: splits("ram"), user_uuid: uuidOf(projectMember), user: userUrl(projectMember), username: splits("projectMember"),
    },
  },
};
