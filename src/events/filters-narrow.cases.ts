import { alice, CUTOFF, type NarrowingCases, splits, urlOf, uuidOf, worldProject } from "../../test/support/narrowing-cases.ts";

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/events/": {
    parameters: {
      event_type: splits("role_granted"), feature: splits("permissions"), scope: urlOf("projects")(worldProject),
      created_from: splits(String(Date.parse(CUTOFF) / 1000)), created_to: splits(String(Date.parse(CUTOFF) / 1000)), message: splits("granted"),
      user_uuid: uuidOf(alice), related_user_uuid: uuidOf(alice), customer_uuid: uuidOf((d) => d.world.consumer),
      project_uuid: uuidOf(worldProject), auth_method: splits("token"), pat_uuid: splits("pat-1"),
    },
  },
};
