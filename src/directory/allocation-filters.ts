import type { UuidFilter, UuidSpelling } from "../collections/contract.ts";

/**
 * The filters of a list of allocations (orders, resources: what a project has of an offering) by their project, its
 * organisation and their offering's category — Waldur's names, one meaning in every list: `nothing` matches no record;
 * `consumerSpellings` are the list's other REST parameters for the organisation (Waldur's resource list takes its URL,
 * its order list does not).
 */
export function byAllocation<W>(nothing: W, consumerSpellings: Readonly<Record<string, UuidSpelling>> = {}) {
  const project: UuidFilter<{ projectId: { in: string[] } }> = {
    kind: "uuids",
    rest: { project_uuid: "uuid" },
    where: (ids) => ({ projectId: { in: ids } }),
  };
  const consumer: UuidFilter<{ project: { customerId: { in: string[] } } }> = {
    kind: "uuids",
    rest: { customer_uuid: "uuid", ...consumerSpellings },
    description: "The consumer organisation (the project's customer)",
    where: (ids) => ({ project: { customerId: { in: ids } } }),
  };
  const category: UuidFilter<W> = {
    kind: "uuids",
    rest: { category_uuid: "uuid" },
    description: "Offerings here have no category: matches nothing",
    where: () => nothing,
  };
  return { projectUuid: project, customerUuid: consumer, categoryUuid: category };
}
