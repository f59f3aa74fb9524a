import { ValidationError } from "../platform/errors.ts";
import { EventRef } from "../events/schema.ts";
import { argumentFilter } from "../events/change-filters.ts";
import { subscriberMaySee } from "../events/visibility.ts";
import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { toHex } from "../platform/ids.ts";
import type { MaintenanceChangedPayload } from "./maintenance-changed.ts";
import { MAINTENANCE_CONTRACT } from "./contract.ts";
import { MaintenanceAnnouncementRef, MaintenanceStateEnum, MaintenanceTypeEnum, TimingBucketEnum } from "./schema-types.ts";
import * as service from "./service.ts";
import { MAINTENANCE_ACTIONS, MAINTENANCE_TRANSITIONS, MaintenanceTransitionError } from "./transitions.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import { afterArgument, resumable } from "../events/resume.ts";
import { findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

/** Its filters and orderings are the public list's too (schema-public.ts). */
export const maintenanceAnnouncementCollection = collectionFields({
  node: MaintenanceAnnouncementRef, contract: MAINTENANCE_CONTRACT,
  enums: { MaintenanceState: MaintenanceStateEnum, MaintenanceType: MaintenanceTypeEnum, TimingBucket: TimingBucketEnum },
  list: { description: "Announcements of the service providers the caller manages (staff and support: all)", load: service.listMaintenance },
  record: service.getMaintenance,
});

const CreateMaintenanceInput = builder.inputType("CreateMaintenanceAnnouncementInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    message: t.string(),
    internalNotes: t.string(),
    maintenanceType: t.field({ type: MaintenanceTypeEnum, description: "Default SCHEDULED" }),
    externalReferenceUrl: t.string(),
    scheduledStart: t.field({ type: "DateTime", required: true }),
    scheduledEnd: t.field({ type: "DateTime", required: true }),
    serviceProviderUuid: t.id({ required: true }),
  }),
});

const UpdateMaintenanceInput = builder.inputType("UpdateMaintenanceAnnouncementInput", {
  description: "Fields left out keep their value",
  fields: (t) => ({
    id: objectIdField(t),
    name: t.string(),
    message: t.string(),
    internalNotes: t.string(),
    maintenanceType: t.field({ type: MaintenanceTypeEnum }),
    externalReferenceUrl: t.string(),
    scheduledStart: t.field({ type: "DateTime" }),
    scheduledEnd: t.field({ type: "DateTime" }),
    serviceProviderUuid: t.id(),
  }),
});

builder.mutationFields((t) => ({
  createMaintenanceAnnouncement: t.prismaField({
    type: "MaintenanceAnnouncement",
    ...resultOr(CREATES),
    description: "A new announcement, in Draft",
    args: { input: t.arg({ type: CreateMaintenanceInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => service.createMaintenance(ctx, input, query),
  }),
  updateMaintenanceAnnouncement: t.prismaField({
    type: "MaintenanceAnnouncement",
    ...resultOr(ON_OBJECT, ValidationError),
    args: { input: t.arg({ type: UpdateMaintenanceInput, required: true }) },
    resolve: (query, _root, { input: { id, ...fields } }, ctx) => service.updateMaintenance(ctx, uuidOf("MaintenanceAnnouncement", id), fields, query),
  }),
  deleteMaintenanceAnnouncement: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    description: "Deletes the announcement, its offering links and its system announcement",
    args: { input: t.arg({ type: idInput("deleteMaintenanceAnnouncement"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("MaintenanceAnnouncement", await service.deleteMaintenance(ctx, uuidOf("MaintenanceAnnouncement", input.id))),
  }),
  ...Object.fromEntries(
    MAINTENANCE_ACTIONS.map((action) => {
      const rule = MAINTENANCE_TRANSITIONS[action];
      return [
        rule.mutation,
        t.prismaField({
          type: "MaintenanceAnnouncement",
          ...resultOr(ON_OBJECT, MaintenanceTransitionError),
          description: `${action}: ${rule.from.join(", ")} → ${rule.to}`,
          args: { input: t.arg({ type: idInput(rule.mutation), required: true }) },
          resolve: (query, _root, { input }, ctx) => service.transitionMaintenance(ctx, uuidOf("MaintenanceAnnouncement", input.id), action, query),
        }),
      ];
    }),
  ),
}));

const MaintenanceChangeRef = builder.objectRef<MaintenanceChangedPayload>("MaintenanceChange").implement({
  fields: (t) => ({
    maintenanceAnnouncementUuid: t.string({ resolve: (p) => toHex(p.maintenanceId) }),
    serviceProviderUuid: t.string({ resolve: (p) => toHex(p.serviceProviderId) }),
    previousState: t.field({ type: MaintenanceStateEnum, nullable: true, description: "null when just created", resolve: (p) => p.previousState }),
    state: t.field({ type: MaintenanceStateEnum, nullable: true, description: "null once deleted", resolve: (p) => p.state }),
    maintenanceAnnouncement: t.prismaField({
      type: "MaintenanceAnnouncement",
      nullable: true,
      description: "The announcement as it is now; null once deleted",
      resolve: (query, p, _args, ctx) => findUnique(ctx.db, "maintenanceAnnouncement", { ...query, where: { id: p.maintenanceId } }),
    }),
    event: t.field({
      type: EventRef,
      // Delivery already checked that the subscriber manages the provider, and the event is scoped to it.
      resolve: (p, _args, ctx) => findUniqueOrThrow(ctx.db, "event", { where: { id: p.eventId } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  maintenanceChanged: t.field({
    type: MaintenanceChangeRef,
    description: "Every change to an announcement (or its offering links) the subscriber may manage, after commit",
    args: { serviceProviderUuid: t.arg.id(), state: t.arg({ type: [MaintenanceStateEnum] }), after: t.arg.int(afterArgument) },
    subscribe: (_root, args, ctx) => {
      ctx.requireViewer();
      const matches = argumentFilter<MaintenanceChangedPayload>([[args.serviceProviderUuid, (p) => p.serviceProviderId]], args.state, (p) => p.state ?? p.previousState);
      return resumable(ctx, "maintenanceChanged", args.after, (p) => matches(p) && subscriberMaySee(ctx, "maintenance", p, service.canSeeMaintenanceChange));
    },
    resolve: (payload) => payload,
  }),
}));
