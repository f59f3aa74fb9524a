import { ValidationError } from "../platform/errors.ts";
import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { MAINTENANCE_OFFERING_CONTRACT } from "./contract.ts";
import * as links from "./service-offerings.ts";
import { ImpactLevelEnum, MaintenanceAnnouncementOfferingRef } from "./schema-types.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";

export const maintenanceAnnouncementOfferingCollection = collectionFields({
  node: MaintenanceAnnouncementOfferingRef, contract: MAINTENANCE_OFFERING_CONTRACT,
  list: { description: "Offerings linked to the announcements the caller may see", load: links.listMaintenanceOfferings },
  record: links.getMaintenanceOffering,
});

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
