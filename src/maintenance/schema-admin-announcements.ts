import { ValidationError } from "../platform/errors.ts";
import { builder, nullIfMissing } from "../graphql/builder.ts";
import { collectionInputs } from "../graphql/collection-inputs.ts";
import { connectionType, nodesQuery, pageArgs, toPage, relayConnection } from "../graphql/pagination.ts";
import * as announcements from "./admin-announcements.ts";
import { AnnouncementTypeEnum } from "./schema-types.ts";
import { AdminAnnouncementRef } from "./schema-admin-announcement-type.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";

const { Filter: FilterInput, Order: OrderEnum } = collectionInputs("AdminAnnouncement", announcements.ADMIN_ANNOUNCEMENT_CONTRACT, {
  AnnouncementType: AnnouncementTypeEnum,
});

const CreateInput = builder.inputType("CreateAdminAnnouncementInput", {
  fields: (t) => ({
    description: t.string({ description: 'Default ""; trimmed, may be blank' }),
    type: t.field({ type: AnnouncementTypeEnum, description: "Default INFORMATION" }),
    activeFrom: t.field({ type: "DateTime", required: true }),
    activeTo: t.field({ type: "DateTime", required: true }),
  }),
});

const UpdateInput = builder.inputType("UpdateAdminAnnouncementInput", {
  description: "Fields left out keep their value",
  fields: (t) => ({
    id: objectIdField(t),
    description: t.string(),
    type: t.field({ type: AnnouncementTypeEnum }),
    activeFrom: t.field({ type: "DateTime" }),
    activeTo: t.field({ type: "DateTime" }),
  }),
});

const Connection = connectionType("AdminAnnouncement", AdminAnnouncementRef);

builder.queryFields((t) => ({
  adminAnnouncements: t.field({
    type: Connection,
    description: "System notifications, including those kept in step with scheduled maintenance",
    args: { filter: t.arg({ type: FilterInput }), orderBy: t.arg({ type: [OrderEnum] }), ...pageArgs },
    resolve: (_root, args, ctx, info) =>
      relayConnection(announcements.listAdminAnnouncements(
        ctx,
        { filter: args.filter, orderBy: args.orderBy, page: toPage(args) },
        nodesQuery(ctx, info, "AdminAnnouncement"),
      )),
  }),
  adminAnnouncement: t.prismaField({
    nullable: true,
    type: "AdminAnnouncement",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => nullIfMissing(announcements.getAdminAnnouncement(ctx, String(args.uuid), query)),
  }),
}));

builder.mutationFields((t) => ({
  createAdminAnnouncement: t.prismaField({
    type: "AdminAnnouncement",
    ...resultOr(CREATES),
    description: "Staff only",
    args: { input: t.arg({ type: CreateInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => announcements.createAdminAnnouncement(ctx, input, query),
  }),
  updateAdminAnnouncement: t.prismaField({
    type: "AdminAnnouncement",
    ...resultOr(ON_OBJECT, ValidationError),
    description: "Staff only",
    args: { input: t.arg({ type: UpdateInput, required: true }) },
    resolve: (query, _root, { input: { id, ...fields } }, ctx) => announcements.updateAdminAnnouncement(ctx, uuidOf("AdminAnnouncement", id), fields, query),
  }),
  deleteAdminAnnouncement: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    description: "Staff only; a maintenance's announcement deleted this way is not recreated by later edits",
    args: { input: t.arg({ type: idInput("deleteAdminAnnouncement"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("AdminAnnouncement", await announcements.deleteAdminAnnouncement(ctx, uuidOf("AdminAnnouncement", input.id))),
  }),
}));
