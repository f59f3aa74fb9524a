import { ValidationError } from "../platform/errors.ts";
import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import * as consents from "./service-consents.ts";
import { CONSENT_CONTRACT } from "./contract.ts";
import { ConsentRef } from "./schema.ts";
import { idInput, inputTypeName, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";

export const consentCollection = collectionFields({
  node: ConsentRef, contract: CONSENT_CONTRACT,
  list: { description: "The caller's consents (staff and support: everyone's)", load: consents.listConsents }, record: consents.getConsent,
});

const GrantConsentInput = builder.inputType(inputTypeName("grantOfferingConsent"), {
  fields: (t) => ({ offeringUuid: t.id({ required: true }) }),
});

builder.mutationFields((t) => ({
  grantOfferingConsent: t.prismaField({
    type: "UserOfferingConsent",
    ...resultOr(ON_OBJECT, ValidationError),
    description: "Consent to the offering's active terms of service (reactivates a revoked or outdated consent)",
    args: { input: t.arg({ type: GrantConsentInput, required: true }) },
    resolve: (query, _r, { input }, ctx) => consents.grantConsent(ctx, String(input.offeringUuid), query),
  }),
  revokeOfferingConsent: t.prismaField({
    type: "UserOfferingConsent",
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: idInput("revokeOfferingConsent"), required: true }) },
    resolve: (query, _r, { input }, ctx) => consents.revokeConsent(ctx, uuidOf("UserOfferingConsent", input.id), query),
  }),
}));
