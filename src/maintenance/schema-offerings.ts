import { builder } from "../graphql/builder.ts";
import { collectionInputs } from "../graphql/collection-inputs.ts";
import { connectionType, nodesQuery, pageArgs, toPage, relayConnection } from "../graphql/pagination.ts";
import { MAINTENANCE_OFFERING_CONTRACT } from "./contract.ts";
import * as links from "./offerings.ts";
import { MaintenanceAnnouncementOfferingRef } from "./schema-types.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { uuidInput } from "../graphql/mutations.ts";

const { Filter: LinkFilterInput, Order: LinkOrderEnum } = collectionInputs("MaintenanceAnnouncementOffering", MAINTENANCE_OFFERING_CONTRACT);

const linkInput = (creating: boolean) =>
  builder.inputType(creating ? "CreateMaintenanceAnnouncementOfferingInput" : "UpdateMaintenanceAnnouncementOfferingInput", {
    fields: (t) => ({
      maintenanceUuid: t.id({ required: creating }),
      offeringUuid: t.id({ required: creating, description: "An offering of the announcing service provider" }),
      impactLevel: t.int({ description: "1 No impact, 2 Degraded performance, 3 Partial outage, 4 Full outage" }),
      impactDescription: t.string(),
    }),
  });
const CreateLinkInput = linkInput(true);
const UpdateLinkInput = linkInput(false);

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
    type: "MaintenanceAnnouncementOffering",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => links.getMaintenanceOffering(ctx, String(args.uuid), query),
  }),
}));

builder.mutationFields((t) => ({
  createMaintenanceAnnouncementOffering: t.prismaField({
    type: "MaintenanceAnnouncementOffering",
    args: { input: t.arg({ type: CreateLinkInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => links.createMaintenanceOffering(ctx, input, query),
  }),
  updateMaintenanceAnnouncementOffering: t.prismaField({
    type: "MaintenanceAnnouncementOffering",
    args: { uuid: t.arg.id({ required: true }), input: t.arg({ type: UpdateLinkInput, required: true }) },
    resolve: (query, _root, args, ctx) => links.updateMaintenanceOffering(ctx, String(args.uuid), args.input, query),
  }),
  deleteMaintenanceAnnouncementOffering: t.field({
    type: DeletionRef,
    errors: {},
    nullable: true,
    args: { input: t.arg({ type: uuidInput("deleteMaintenanceAnnouncementOffering"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("MaintenanceAnnouncementOffering", await links.deleteMaintenanceOffering(ctx, String(input.uuid))),
  }),
}));
