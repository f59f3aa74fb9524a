import type { Prisma } from "../generated/prisma/client.ts";
import { commaList, type ScalarFilter, type UuidFilter } from "../collections/contract.ts";

/**
 * The filters of a list whose records each belong to an offering, by that offering — Waldur's names, one meaning in
 * every list: `of` says a condition on the offering of the list's own records, `nothing` matches no record. The
 * offering's own uuid is a condition on the records' `offeringId` column.
 */
export function byOffering<W>(of: (offering: Prisma.OfferingWhereInput) => W, nothing: W) {
  const offering: UuidFilter<{ offeringId: { in: string[] } }> = {
    kind: "uuids",
    rest: { offering_uuid: "uuids", offering: { url: "offering" } },
    description: "Any of these offerings",
    where: (ids) => ({ offeringId: { in: ids } }),
  };
  const provider: UuidFilter<W> = {
    kind: "uuids",
    rest: { provider_uuid: "uuid" },
    description: "The provider organisation (the offering's customer)",
    where: (ids) => of({ customerId: { in: ids } }),
  };
  const offeringSlug: ScalarFilter<"texts", W> = {
    kind: "texts",
    rest: "offering_slug",
    description: "Any of these offering slugs (repeated or comma-separated; blanks are left out)",
    where: (slugs) => of({ slug: { in: commaList(slugs) } }),
  };
  const parentOffering: UuidFilter<W> = {
    kind: "uuids",
    rest: { parent_offering_uuid: "uuid" },
    description: "Offerings here have no parent offering: matches nothing",
    where: () => nothing,
  };
  return { offeringUuid: offering, providerUuid: provider, offeringSlug, parentOfferingUuid: parentOffering };
}
