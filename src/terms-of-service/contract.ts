import type { Prisma } from "../generated/prisma/client.ts";
import { defineContract, postgresNulls } from "../collections/contract.ts";

export const TERMS_CONTRACT = defineContract<Prisma.OfferingTermsOfServiceWhereInput, Prisma.OfferingTermsOfServiceOrderByWithRelationInput>()({
  filters: {
    offeringUuid: {
      kind: "uuids",
      rest: { offering_uuid: "uuid", offering: { url: "offering" } },
      where: (ids) => ({ offeringId: { in: ids } }),
    },
    isActive: { kind: "boolean", rest: "is_active", where: (isActive) => ({ isActive }) },
    version: { kind: "text", rest: "version", description: "Exact", where: (version) => ({ version }) },
    requiresReconsent: {
      kind: "boolean",
      rest: "requires_reconsent",
      description: "Whether this version asks earlier consents to be given again",
      where: (requiresReconsent) => ({ requiresReconsent }),
    },
  },
  orderings: {
    created: (direction) => ({ created: direction }),
    modified: (direction) => ({ modified: direction }),
    version: (direction) => ({ version: direction }),
  },
  defaultOrder: ["-created"],
  tiebreak: [{ id: "asc" }],
});

/** An unrevoked consent to an offering whose active terms ask for reconsent (Waldur does not compare versions here). */
const askedToReconsent: Prisma.UserOfferingConsentWhereInput = {
  revocationDate: null,
  offering: { termsOfService: { some: { isActive: true, requiresReconsent: true } } },
};

export const CONSENT_CONTRACT = defineContract<Prisma.UserOfferingConsentWhereInput, Prisma.UserOfferingConsentOrderByWithRelationInput>()({
  filters: {
    userUuid: { kind: "uuids", rest: { user_uuid: "uuid", user: { url: "user" } }, where: (ids) => ({ userId: { in: ids } }) },
    offeringUuid: {
      kind: "uuids",
      rest: { offering_uuid: "uuid", offering: { url: "offering" } },
      where: (ids) => ({ offeringId: { in: ids } }),
    },
    version: { kind: "text", rest: "version", description: "The consented version, exact", where: (version) => ({ version }) },
    hasConsent: {
      kind: "boolean",
      rest: "has_consent",
      description: "Not revoked",
      where: (has) => (has ? { revocationDate: null } : { revocationDate: { not: null } }),
    },
    requiresReconsent: {
      kind: "boolean",
      rest: "requires_reconsent",
      description: "Not revoked, and the offering's active terms ask for reconsent",
      where: (requires) => (requires ? askedToReconsent : { NOT: askedToReconsent }),
    },
  },
  orderings: {
    agreement_date: (direction) => ({ agreementDate: direction }),
    created: (direction) => ({ created: direction }),
    modified: (direction) => ({ modified: direction }),
    revocation_date: (direction) => ({ revocationDate: postgresNulls(direction) }),
  },
  defaultOrder: ["-created"],
  tiebreak: [{ id: "asc" }],
});
