import { builder } from "../graphql/builder.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import { getAdminAnnouncement } from "./service-admin-announcements.ts";
import { ANNOUNCEMENT_TYPE_LABELS, impactLevelDisplay, impactLevels, maintenanceStateLabel, maintenanceTypes } from "./enums.ts";
import { AnnouncementTypeEnum, ImpactLevelEnum, MaintenanceStateEnum, MaintenanceTypeEnum, PublicMaintenanceAnnouncementRef } from "./schema-types.ts";

interface AffectedOfferingSummary {
  uuid: string;
  name: string;
  impactLevel: number;
  impactDescription: string;
}

/** REST's `maintenance_affected_offerings`; the public graph has `maintenance { affectedOfferings }`. */
const AdminAnnouncementAffectedOfferingRef = builder.objectRef<AffectedOfferingSummary>("AdminAnnouncementAffectedOffering").implement({
  fields: (t) => ({
    uuid: t.exposeString("uuid"),
    name: t.exposeString("name"),
    impactLevel: t.field({ type: ImpactLevelEnum, resolve: (o) => impactLevels.ofStored(o.impactLevel) }),
    impactDescription: t.exposeString("impactDescription"),
    ...restPresentation({
      impactLevelCode: t.exposeInt("impactLevel", { description: "Waldur's integer of the impact level" }),
      impactLevelDisplay: t.string({ resolve: (o) => impactLevelDisplay(o.impactLevel) }),
    }),
  }),
});

const MAINTENANCE_SUMMARY = {
  maintenance: {
    select: {
      id: true,
      name: true,
      maintenanceType: true,
      state: true,
      scheduledStart: true,
      scheduledEnd: true,
      externalReferenceUrl: true,
      serviceProvider: { select: { customer: { select: { name: true } } } },
      affectedOfferings: {
        select: { impactLevel: true, impactDescription: true, offering: { select: { id: true, name: true } } },
        orderBy: [{ created: "asc" as const }, { id: "asc" as const }],
      },
    },
  },
};

/** A system notification, and the maintenance it announces, if any (read-only). */
export const AdminAnnouncementRef = builder.prismaNode("AdminAnnouncement", {
  ...visibleNode(getAdminAnnouncement),
  fields: (t) => ({
    uuid: t.string({ resolve: (a) => toHex(a.id) }),
    description: t.exposeString("description"),
    type: t.expose("type", { type: AnnouncementTypeEnum }),
    activeFrom: t.expose("activeFrom", { type: "DateTime" }),
    activeTo: t.expose("activeTo", { type: "DateTime" }),
    isActive: t.boolean({ description: "active_from <= now < active_to, as the is_active filter", resolve: (a, _a, ctx) => a.activeFrom <= ctx.now() && ctx.now() < a.activeTo }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
    maintenance: t.relation("maintenance", {
      type: PublicMaintenanceAnnouncementRef,
      nullable: true,
      description: "The maintenance this announces, as everyone may read it (its public view)",
    }),
    ...restPresentation({
      url: t.string({ resolve: (a, _a, ctx) => apiUrl(ctx, "adminAnnouncement", a.id) }),
      typeLabel: t.string({ description: "information, warning or danger", resolve: (a) => ANNOUNCEMENT_TYPE_LABELS[a.type] }),
      maintenanceUuid: t.string({ nullable: true, resolve: (a) => (a.maintenanceId ? toHex(a.maintenanceId) : null) }),
      maintenanceName: t.string({ nullable: true, select: MAINTENANCE_SUMMARY, resolve: (a) => a.maintenance?.name ?? null }),
      maintenanceType: t.field({
        type: MaintenanceTypeEnum,
        nullable: true,
        select: MAINTENANCE_SUMMARY,
        resolve: (a) => (a.maintenance ? maintenanceTypes.ofStored(a.maintenance.maintenanceType) : null),
      }),
      maintenanceTypeCode: t.int({
        nullable: true,
        description: "Waldur's integer of the type",
        select: MAINTENANCE_SUMMARY,
        resolve: (a) => a.maintenance?.maintenanceType ?? null,
      }),
      maintenanceState: t.field({ type: MaintenanceStateEnum, nullable: true, select: MAINTENANCE_SUMMARY, resolve: (a) => a.maintenance?.state ?? null }),
      maintenanceStateLabel: t.string({
        nullable: true,
        select: MAINTENANCE_SUMMARY,
        resolve: (a) => (a.maintenance ? maintenanceStateLabel(a.maintenance.state) : null),
      }),
      maintenanceScheduledStart: t.field({ type: "DateTime", nullable: true, select: MAINTENANCE_SUMMARY, resolve: (a) => a.maintenance?.scheduledStart ?? null }),
      maintenanceScheduledEnd: t.field({ type: "DateTime", nullable: true, select: MAINTENANCE_SUMMARY, resolve: (a) => a.maintenance?.scheduledEnd ?? null }),
      maintenanceServiceProvider: t.string({
        nullable: true,
        description: "Name of the announcing service provider",
        select: MAINTENANCE_SUMMARY,
        resolve: (a) => a.maintenance?.serviceProvider.customer.name ?? null,
      }),
      maintenanceExternalReferenceUrl: t.string({ nullable: true, select: MAINTENANCE_SUMMARY, resolve: (a) => a.maintenance?.externalReferenceUrl ?? null }),
      maintenanceAffectedOfferings: t.field({
        type: [AdminAnnouncementAffectedOfferingRef],
        select: MAINTENANCE_SUMMARY,
        resolve: (a) =>
          (a.maintenance?.affectedOfferings ?? []).map((l) => ({
            uuid: toHex(l.offering.id),
            name: l.offering.name,
            impactLevel: l.impactLevel,
            impactDescription: l.impactDescription,
          })),
      }),
    }),
  }),
});
