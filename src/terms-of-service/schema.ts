import { ValidationError } from "../platform/errors.ts";
import { builder, type Types } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import { type ConsentCopies, type ConsentStatus, consentOf, consentStatusOf, hasConsent, offeringUserConsentStatus, requiresReconsent } from "./consent-status.ts";
import { TERMS_CONTRACT } from "./contract.ts";
import * as terms from "./service.ts";
import { getConsent } from "./service-consents.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";

const UserConsentInfoRef = builder
  .objectRef<{ id: string; version: string; agreementDate: Date; revocationDate: Date | null }>("UserConsentInfo")
  .implement({
    fields: (t) => ({
      uuid: t.string({ resolve: (c) => toHex(c.id) }),
      version: t.exposeString("version"),
      agreementDate: t.expose("agreementDate", { type: "DateTime" }),
      isRevoked: t.boolean({ resolve: (c) => c.revocationDate !== null }),
    }),
  });

export const TermsRef = builder.prismaNode("OfferingTermsOfService", {
  ...visibleNode(terms.getTerms, { type: "OfferingTermsOfService", visibleAmong: terms.visibleTermsIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (x) => toHex(x.id) }),
    offering: t.relation("offering"),
    ...restPresentation({
      offeringUuid: t.string({ resolve: (x) => toHex(x.offeringId) }),
      offeringUrl: t.string({ resolve: (x, _a, ctx) => apiUrl(ctx, "offering", x.offeringId) }),
      offeringName: t.string({ select: { offering: { select: { name: true } } }, resolve: (x) => x.offering.name }),
    }),
    termsOfService: t.exposeString("termsOfService"),
    termsOfServiceLink: t.exposeString("termsOfServiceLink"),
    version: t.exposeString("version"),
    isActive: t.exposeBoolean("isActive"),
    requiresReconsent: t.exposeBoolean("requiresReconsent"),
    gracePeriodDays: t.exposeInt("gracePeriodDays"),
    activatedAt: t.expose("activatedAt", { type: "DateTime", nullable: true }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
    userConsent: t.field({
      type: UserConsentInfoRef,
      nullable: true,
      description: "The caller's consent to this offering's terms",
      resolve: async (x, _a, ctx) => (ctx.viewer ? ((await consentOf(ctx)({ userId: ctx.viewer.id, offeringId: x.offeringId })) ?? null) : null),
    }),
    hasUserConsent: t.boolean({
      description: "Whether the caller has an unrevoked consent to this version",
      resolve: async (x, _a, ctx) => {
        const consent = ctx.viewer ? await consentOf(ctx)({ userId: ctx.viewer.id, offeringId: x.offeringId }) : undefined;
        return !!consent && !consent.revocationDate && consent.version === x.version;
      },
    }),
  }),
});

/** What an offering user record shows its provider about the user (Waldur names, without the `user_` prefix). */
const SHARED_USER_ATTRIBUTES = ["username", "full_name", "first_name", "last_name", "email"] as const;

const consentStatusField = (pick: (s: Parameters<typeof hasConsent>[0]) => boolean) => ({
  resolve: async (row: { userId: string; offeringId: string }, _a: unknown, ctx: Parameters<typeof consentStatusOf>[0]) =>
    pick(await consentStatusOf(ctx, row.userId, row.offeringId)),
});

export const ConsentRef = builder.prismaNode("UserOfferingConsent", {
  ...visibleNode(getConsent),
  fields: (t) => ({
    uuid: t.string({ resolve: (c) => toHex(c.id) }),
    user: t.relation("user"),
    offering: t.relation("offering"),
    collectedAttributes: t.stringList({
      description: "The user's attributes the offering's provider receives (on the user's offering user record)",
      resolve: () => [...SHARED_USER_ATTRIBUTES],
    }),
    ...restPresentation({
      userUuid: t.string({ resolve: (c) => toHex(c.userId) }),
      offeringUuid: t.string({ resolve: (c) => toHex(c.offeringId) }),
      offeringUrl: t.string({ resolve: (c, _a, ctx) => apiUrl(ctx, "offering", c.offeringId) }),
      offeringName: t.string({ select: { offering: { select: { name: true } } }, resolve: (c) => c.offering.name }),
      offeringSlug: t.string({ select: { offering: { select: { slug: true } } }, resolve: (c) => c.offering.slug }),
      userUsername: t.string({ select: { user: { select: { username: true } } }, resolve: (c) => c.user.username }),
      userFullName: t.string({
        select: { user: { select: { firstName: true, lastName: true } } },
        resolve: (c) => `${c.user.firstName} ${c.user.lastName}`.trim(),
      }),
      userEmail: t.string({ select: { user: { select: { email: true } } }, resolve: (c) => c.user.email }),
    }),
    version: t.exposeString("version"),
    agreementDate: t.expose("agreementDate", { type: "DateTime" }),
    revocationDate: t.expose("revocationDate", { type: "DateTime", nullable: true }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
    hasConsent: t.boolean(consentStatusField(hasConsent)),
    requiresReconsent: t.boolean(consentStatusField(requiresReconsent)),
  }),
});

const offeringUserConsentField = (pick: (s: ConsentStatus) => boolean) => ({
  resolve: (ou: ConsentCopies, _a: unknown, ctx: Parameters<typeof offeringUserConsentStatus>[0]) => {
    const status = offeringUserConsentStatus(ctx, ou);
    return typeof status === "string" ? pick(status) : status.then(pick);
  },
});

builder.prismaObjectFields("OfferingUser", (t) => ({
  hasConsent: t.boolean({
    description: "The user has a current consent to the offering's active terms (false when it has none)",
    ...offeringUserConsentField(hasConsent),
  }),
  requiresReconsent: t.boolean({
    description: "The offering's active terms ask this user to consent again",
    ...offeringUserConsentField(requiresReconsent),
  }),
}));

builder.prismaObjectField("Offering", "hasActiveTos", (t) =>
  t.boolean({
    description: "The offering has active terms of service",
    select: { termsOfService: { where: { isActive: true }, select: { id: true } } },
    resolve: (offering) => offering.termsOfService.length > 0,
  }),
);

export const termsCollection = collectionFields({ node: TermsRef, name: "TermsOfService", contract: TERMS_CONTRACT, list: terms.listTerms, record: terms.getTerms });

const TermsInput = builder.inputType("TermsOfServiceInput", {
  fields: (t) => ({
    id: objectIdField(t),
    termsOfService: t.string(),
    termsOfServiceLink: t.string(),
    isActive: t.boolean(),
    gracePeriodDays: t.int({ description: "Default 60" }),
  }),
});
/** A new version's fields: created as it is, or published (made the active one). */
const newVersionFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, "InputObject">) => ({
  offeringUuid: t.id({ required: true }),
  termsOfService: t.string(),
  termsOfServiceLink: t.string(),
  version: t.string({ description: "Fixed after creation" }),
  requiresReconsent: t.boolean({ description: "Fixed after creation" }),
  gracePeriodDays: t.int({ description: "Default 60" }),
});
const CreateTermsInput = builder.inputType("CreateTermsOfServiceInput", {
  fields: (t) => ({ ...newVersionFields(t), isActive: t.boolean() }),
});
const PublishTermsInput = builder.inputType("PublishTermsOfServiceInput", { fields: newVersionFields });

builder.mutationFields((t) => ({
  publishOfferingTermsOfService: t.prismaField({
    type: "OfferingTermsOfService",
    ...resultOr(CREATES),
    description: "A new version made the offering's active one, and the version active until now deactivated, in one step",
    args: { input: t.arg({ type: PublishTermsInput, required: true }) },
    resolve: (query, _r, { input }, ctx) => terms.publishTerms(ctx, { ...input, offering: String(input.offeringUuid) }, query),
  }),
  createOfferingTermsOfService: t.prismaField({
    type: "OfferingTermsOfService",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: CreateTermsInput, required: true }) },
    resolve: (query, _r, { input }, ctx) => terms.createTerms(ctx, { ...input, offering: String(input.offeringUuid) }, query),
  }),
  updateOfferingTermsOfService: t.prismaField({
    type: "OfferingTermsOfService",
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: TermsInput, required: true }) },
    resolve: (query, _r, { input }, ctx) => terms.updateTerms(ctx, uuidOf("OfferingTermsOfService", input.id), input, query),
  }),
  deleteOfferingTermsOfService: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    description: "Deletes the configuration",
    args: { input: t.arg({ type: idInput("deleteOfferingTermsOfService"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("OfferingTermsOfService", await terms.deleteTerms(ctx, uuidOf("OfferingTermsOfService", input.id))),
  }),
}));
