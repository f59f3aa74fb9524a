import { ValidationError } from "../platform/errors.ts";
import { builder, nullIfMissing } from "../graphql/builder.ts";
import { collectionInputs } from "../graphql/collection-inputs.ts";
import { connectionType, nodesQuery, pageArgs, toPage, relayConnection } from "../graphql/pagination.ts";
import * as consents from "./consents.ts";
import { CONSENT_CONTRACT } from "./contract.ts";
import { ConsentRef } from "./schema.ts";
import { idInput, inputTypeName, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";

const { Filter: ConsentFilterInput, Order: ConsentOrderEnum } = collectionInputs("UserOfferingConsent", CONSENT_CONTRACT);

builder.queryFields((t) => ({
  userOfferingConsents: t.field({
    type: connectionType("UserOfferingConsent", ConsentRef),
    description: "The caller's consents (staff and support: everyone's)",
    args: { filter: t.arg({ type: ConsentFilterInput }), orderBy: t.arg({ type: [ConsentOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(consents.listConsents(ctx, { filter: args.filter, orderBy: args.orderBy, page: toPage(args) }, nodesQuery(ctx, info, "UserOfferingConsent"))),
  }),
  userOfferingConsent: t.prismaField({
    nullable: true,
    type: "UserOfferingConsent",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(consents.getConsent(ctx, String(args.uuid), query)),
  }),
}));

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
