import { type Case, type NarrowingCases, splits, uuidOf } from "../../test/support/narrowing-cases.ts";

const MAINTENANCE: Record<string, Case> = {
  state: splits("Scheduled"), maintenance_type: splits("3"), service_provider_uuid: uuidOf((d) => d.serviceProvider2),
  scheduled_start_after: splits("2029-01-01T00:00:00Z"), scheduled_start_before: splits("2025-01-01T00:00:00Z"),
  scheduled_end_after: splits("2029-01-01T00:00:00Z"), scheduled_end_before: splits("2025-01-01T00:00:00Z"), timing_bucket: splits("late_start"),
};

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/maintenance-announcements/": { parameters: MAINTENANCE },
  "/api/public-maintenance-announcements/": { parameters: MAINTENANCE },
  "/api/maintenance-announcement-offerings/": {
    parameters: {
      maintenance_uuid: uuidOf((d) => d.scheduledMaintenance), offering_uuid: uuidOf((d) => d.hpc),
    },
  },
  "/api/admin-announcements/": {
    parameters: {
      description: splits("outage"), is_active: splits("true"), type: splits("warning"),
    },
  },
};
