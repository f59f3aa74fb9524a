import { builder } from "../graphql/builder.ts";
import { connectionType, nodesQuery, pageArgs, toPage } from "../graphql/pagination.ts";
import * as consents from "./consents.ts";
import { ConsentRef } from "./schema.ts";

const ConsentOrderEnum = builder.enumType("UserOfferingConsentOrder", {
  values: Object.keys(consents.CONSENT_ORDER) as consents.ConsentOrder[],
});
const ConsentFilterInput = builder.inputType("UserOfferingConsentFilter", {
  fields: (t) => ({ userUuid: t.id(), offeringUuid: t.id(), version: t.string() }),
});

builder.queryFields((t) => ({
  userOfferingConsents: t.field({
    type: connectionType("UserOfferingConsent", ConsentRef),
    description: "The caller's consents (staff and support: everyone's)",
    args: { filter: t.arg({ type: ConsentFilterInput }), orderBy: t.arg({ type: [ConsentOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      consents.listConsents(
        ctx,
        {
          filter: args.filter && { ...args.filter, userUuid: args.filter.userUuid?.toString(), offeringUuid: args.filter.offeringUuid?.toString() },
          orderBy: args.orderBy,
          page: toPage(args),
        },
        nodesQuery(ctx, info, "UserOfferingConsent"),
      ) as never,
  }),
  userOfferingConsent: t.prismaField({
    type: "UserOfferingConsent",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => consents.getConsent(ctx, String(args.uuid), query),
  }),
}));

builder.mutationFields((t) => ({
  grantOfferingConsent: t.prismaField({
    type: "UserOfferingConsent",
    description: "Consent to the offering's active terms of service (reactivates a revoked or outdated consent)",
    args: { offeringUuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => consents.grantConsent(ctx, String(args.offeringUuid), query),
  }),
  revokeOfferingConsent: t.prismaField({
    type: "UserOfferingConsent",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => consents.revokeConsent(ctx, String(args.uuid), query),
  }),
}));
