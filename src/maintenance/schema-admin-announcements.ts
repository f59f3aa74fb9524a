import { ValidationError } from "../platform/errors.ts";
import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import * as announcements from "./service-admin-announcements.ts";
import { AnnouncementTypeEnum } from "./schema-types.ts";
import { AdminAnnouncementRef } from "./schema-admin-announcement-type.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";

export const adminAnnouncementCollection = collectionFields({
  node: AdminAnnouncementRef, contract: announcements.ADMIN_ANNOUNCEMENT_CONTRACT, enums: { AnnouncementType: AnnouncementTypeEnum },
  list: { description: "System notifications, including those kept in step with scheduled maintenance", load: announcements.listAdminAnnouncements },
  record: announcements.getAdminAnnouncement,
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
