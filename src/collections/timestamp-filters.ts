import type { Filter } from "./contract.ts";

type Timestamps = { created?: { gte: Date } | { lt: Date }; modified?: { gte: Date } | { lt: Date } };

/**
 * Waldur's filters on when a record was created and last modified, one meaning in every list: `created` and
 * `modified` keep the records at or after, `created_before` and `modified_before` those before. `specSpellings`: the
 * spec's `created_after` and `modified_after` are read too (offering users).
 */
export function byTimestamps({ specSpellings = false } = {}) {
  const lowerBound = (stamp: keyof Timestamps) => (specSpellings ? [stamp, `${stamp}_after`] : stamp);
  return {
    createdAfter: { kind: "after", rest: lowerBound("created"), description: "Created at or after", where: (gte) => ({ created: { gte } }) },
    createdBefore: { kind: "before", rest: "created_before", where: (lt) => ({ created: { lt } }) },
    modifiedAfter: { kind: "after", rest: lowerBound("modified"), description: "Modified at or after", where: (gte) => ({ modified: { gte } }) },
    modifiedBefore: { kind: "before", rest: "modified_before", where: (lt) => ({ modified: { lt } }) },
  } as const satisfies Record<string, Filter<Timestamps>>;
}
