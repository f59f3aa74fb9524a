import { builder } from "../graphql/builder.ts";
import { connectionType, pageArgs, relayConnection } from "../graphql/pagination.ts";
import { toHex } from "../platform/ids.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { attributeConfigUuid, EXPOSED_USER_FIELDS, offeringAccounts, userAttributeConfig, type UserAttributeConfig } from "./service-provider-views.ts";
import { findUniqueOrThrow } from "../platform/reads/sql/find.ts";

/** Waldur's expose_* switches that the gateway's offering-user serializer turns on. */
const EXPOSE_SWITCHES = Object.fromEntries(EXPOSED_USER_FIELDS.map((field) => [`expose_${field}`, true]));

const UserAttributeConfigRef = builder.objectRef<UserAttributeConfig>("OfferingUserAttributeConfig").implement({
  fields: (t) => ({
    uuid: t.string({ resolve: (c) => attributeConfigUuid(c.offeringId) }),
    offering: t.prismaField({
      type: "Offering",
      resolve: (query, c, _args, ctx) => findUniqueOrThrow(ctx.db, "offering", { ...query, where: { id: c.offeringId } }),
    }),
    ...restPresentation({
      offeringUuid: t.string({ resolve: (c) => toHex(c.offeringId) }),
      offeringName: t.exposeString("offeringName"),
    }),
    exposedFields: t.stringList({ resolve: (c) => [...c.exposedFields] }),
    exposeSwitches: t.field({ type: "JSON", description: "Waldur's expose_<field> booleans", resolve: () => EXPOSE_SWITCHES }),
    isDefault: t.boolean({ description: "Always true: the gateway has no per-offering configuration", resolve: () => true }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
  }),
});

/** Waldur's states of service and course accounts (a course account may also be pending). */
const OfferingAccountStateEnum = builder.enumType("OfferingAccountState", { values: ["OK", "PENDING", "ERRED", "CLOSED"] as const });

const OfferingAccountRef = builder.objectRef<never>("OfferingAccount").implement({
  description: "A project service account or course account (not modelled by the gateway: lists are empty)",
  fields: (t) => ({
    uuid: t.string({ resolve: (a) => a }),
    username: t.string({ resolve: (a) => a }),
    state: t.field({ type: OfferingAccountStateEnum, resolve: (a) => a }),
    projectUuid: t.string({ resolve: (a) => a }),
  }),
});

const OfferingAccountKindEnum = builder.enumType("OfferingAccountKind", { values: ["PROJECT_SERVICE", "COURSE"] as const });

builder.queryFields((t) => ({
  offeringUserAttributeConfig: t.field({
    type: UserAttributeConfigRef,
    description: "Which user attributes the offering's provider receives (provider side)",
    args: { offeringUuid: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => userAttributeConfig(ctx, String(args.offeringUuid)),
  }),
  offeringAccounts: t.field({
    type: connectionType("OfferingAccount", OfferingAccountRef),
    description: "Service or course accounts of an offering's projects (provider side; always empty here)",
    args: { offeringUuid: t.arg.id({ required: true }), kind: t.arg({ type: OfferingAccountKindEnum, required: true }), ...pageArgs },
    resolve: (_r, args, ctx) => relayConnection(offeringAccounts(ctx, String(args.offeringUuid), args.kind)),
  }),
}));
