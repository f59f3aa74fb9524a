import { ValidationError } from "../platform/errors.ts";
import { builder, nullIfMissing } from "../graphql/builder.ts";
import { collectionInputs } from "../graphql/collection-inputs.ts";
import { connectionType, nodesQuery, pageArgs, toPage, relayConnection } from "../graphql/pagination.ts";
import { MAINTENANCE_OFFERING_CONTRACT } from "./contract.ts";
import * as links from "./offerings.ts";
import { ImpactLevelEnum, MaintenanceAnnouncementOfferingRef } from "./schema-types.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";

const { Filter: LinkFilterInput, Order: LinkOrderEnum } = collectionInputs("MaintenanceAnnouncementOffering", MAINTENANCE_OFFERING_CONTRACT);

const CreateLinkInput = builder.inputType("CreateMaintenanceAnnouncementOfferingInput", {
  fields: (t) => ({
    maintenanceUuid: t.id({ required: true }),
    offeringUuid: t.id({ required: true, description: "An offering of the announcing service provider" }),
    impactLevel: t.field({ type: ImpactLevelEnum, description: "Default NO_IMPACT" }),
    impactDescription: t.string(),
  }),
});

const UpdateLinkInput = builder.inputType("UpdateMaintenanceAnnouncementOfferingInput", {
  description: "Fields left out keep their value",
  fields: (t) => ({
    id: objectIdField(t),
    maintenanceUuid: t.id(),
    offeringUuid: t.id({ description: "An offering of the announcing service provider" }),
    impactLevel: t.field({ type: ImpactLevelEnum }),
    impactDescription: t.string(),
  }),
});

const LinkConnection = connectionType("MaintenanceAnnouncementOffering", MaintenanceAnnouncementOfferingRef);

builder.queryFields((t) => ({
  maintenanceAnnouncementOfferings: t.field({
    type: LinkConnection,
    description: "Offerings linked to the announcements the caller may see",
    args: { filter: t.arg({ type: LinkFilterInput }), orderBy: t.arg({ type: [LinkOrderEnum] }), ...pageArgs },
    resolve: (_root, args, ctx, info) =>
      relayConnection(links.listMaintenanceOfferings(
        ctx,
        { filter: args.filter, orderBy: args.orderBy, page: toPage(args) },
        nodesQuery(ctx, info, "MaintenanceAnnouncementOffering"),
      )),
  }),
  maintenanceAnnouncementOffering: t.prismaField({
    nullable: true,
    type: "MaintenanceAnnouncementOffering",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => nullIfMissing(links.getMaintenanceOffering(ctx, String(args.uuid), query)),
  }),
}));

builder.mutationFields((t) => ({
  createMaintenanceAnnouncementOffering: t.prismaField({
    type: "MaintenanceAnnouncementOffering",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: CreateLinkInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => links.createMaintenanceOffering(ctx, input, query),
  }),
  updateMaintenanceAnnouncementOffering: t.prismaField({
    type: "MaintenanceAnnouncementOffering",
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: UpdateLinkInput, required: true }) },
    resolve: (query, _root, { input: { id, ...fields } }, ctx) => links.updateMaintenanceOffering(ctx, uuidOf("MaintenanceAnnouncementOffering", id), fields, query),
  }),
  deleteMaintenanceAnnouncementOffering: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    args: { input: t.arg({ type: idInput("deleteMaintenanceAnnouncementOffering"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("MaintenanceAnnouncementOffering", await links.deleteMaintenanceOffering(ctx, uuidOf("MaintenanceAnnouncementOffering", input.id))),
  }),
}));
