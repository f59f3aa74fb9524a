import { type Case, cutoff, empties, type NarrowingCases, projectMember, splits, uuidOf } from "../../test/support/narrowing-cases.ts";

const KEYS: Record<string, Case> = {
  user_uuid: uuidOf(projectMember), name: splits("lap"), name_exact: splits("laptop"),
  fingerprint_md5: splits((d) => d.laptopKey.fingerprintMd5), fingerprint_sha256: splits((d) => d.laptopKey.fingerprintSha256),
  fingerprint_sha512: splits((d) => d.laptopKey.fingerprintSha512), is_shared: empties("true"),
  created: cutoff, created_before: cutoff, modified: cutoff, modified_before: cutoff,
};

/** Each REST filter of the domain's lists with a value that narrows it on split-data.ts (rest-adapter/filters-narrow.test.ts). */
export const NARROWING_CASES: NarrowingCases = {
  "/api/keys/": { parameters: KEYS },
  "/api/marketplace-service-providers/:uuid/keys/": {
    parameters: KEYS,
    // The second provider's Object Storage is the allocation in the world's project (the world's own awaits its consumer).
    parent: (d) => d.serviceProvider2.uuid,
  },
};
