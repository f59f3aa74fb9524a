import { builder } from "../graphql/builder.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import {
  ANNOUNCEMENT_TYPE_LABELS,
  IMPACT_LEVELS,
  impactLevelDisplay,
  impactLevels,
  MAINTENANCE_STATES,
  MAINTENANCE_TYPES,
  maintenanceStateLabel,
  maintenanceTypeDisplay,
  maintenanceTypes,
} from "./enums.ts";
import { SCHEDULE, TIMING_BUCKETS, TIMING_GRACE_MINUTES, timingBucketLabel, timingOf } from "./timing.ts";
import { getMaintenanceOffering } from "./offerings.ts";
import { getMaintenance, visibleMaintenanceIds } from "./service.ts";
import { getAdminAnnouncement } from "./admin-announcements.ts";
import { getPublicMaintenance } from "./public.ts";
import { visibleNode } from "../graphql/nodes.ts";

export const MaintenanceStateEnum = builder.enumType("MaintenanceState", {
  values: Object.fromEntries(
    Object.entries(MAINTENANCE_STATES).map(([state, { label }]) => [state, { description: `REST label "${label}"` }]),
  ) as Record<keyof typeof MAINTENANCE_STATES, { description: string }>,
});

export const TimingBucketEnum = builder.enumType("TimingBucket", {
  description: `How the maintenance kept to its schedule, with ${TIMING_GRACE_MINUTES} minutes' grace`,
  values: Object.fromEntries(
    Object.entries(TIMING_BUCKETS).map(([bucket, { label, description }]) => [bucket, { description: `${description} (REST "${label}")` }]),
  ) as Record<keyof typeof TIMING_BUCKETS, { description: string }>,
});

/** The enum of a table of values stored as Waldur's integers; REST shows the integer and its display name. */
const codedEnum = <V extends string>(name: string, table: Readonly<Record<V, { code: number; display: string }>>) =>
  builder.enumType(name, {
    values: Object.fromEntries(
      Object.entries<{ code: number; display: string }>(table).map(([value, { code, display }]) => [value, { description: `${display} (REST ${code})` }]),
    ) as Record<V, { description: string }>,
  });

export const MaintenanceTypeEnum = codedEnum("MaintenanceType", MAINTENANCE_TYPES);
export const ImpactLevelEnum = codedEnum("ImpactLevel", IMPACT_LEVELS);

export const AnnouncementTypeEnum = builder.enumType("AnnouncementType", {
  values: Object.keys(ANNOUNCEMENT_TYPE_LABELS) as Array<keyof typeof ANNOUNCEMENT_TYPE_LABELS>,
});

/** A link of an offering to an announcement; no relations, as the public view nests it for anonymous callers. */
export const MaintenanceAnnouncementOfferingRef = builder.prismaNode("MaintenanceAnnouncementOffering", {
  ...visibleNode(getMaintenanceOffering),
  fields: (t) => ({
    uuid: t.string({ resolve: (l) => toHex(l.id) }),
    url: t.string({ resolve: (l, _a, ctx) => apiUrl(ctx, "maintenanceAnnouncementOffering", l.id) }),
    maintenanceUuid: t.string({ resolve: (l) => toHex(l.maintenanceId) }),
    maintenanceUrl: t.string({ resolve: (l, _a, ctx) => apiUrl(ctx, "maintenanceAnnouncement", l.maintenanceId) }),
    offeringUuid: t.string({ resolve: (l) => toHex(l.offeringId) }),
    offeringUrl: t.string({ resolve: (l, _a, ctx) => apiUrl(ctx, "offering", l.offeringId) }),
    offeringName: t.string({ select: { offering: { select: { name: true } } }, resolve: (l) => l.offering.name }),
    impactLevel: t.field({ type: ImpactLevelEnum, resolve: (l) => impactLevels.ofStored(l.impactLevel) }),
    impactLevelCode: t.exposeInt("impactLevel", { description: "Waldur's integer of the impact level" }),
    impactLevelDisplay: t.string({ resolve: (l) => impactLevelDisplay(l.impactLevel) }),
    impactDescription: t.exposeString("impactDescription"),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
  }),
});

/** The provider's view of an announcement, internal fields included. */
export const MaintenanceAnnouncementRef = builder.prismaNode("MaintenanceAnnouncement", {
  ...visibleNode(getMaintenance, { type: "MaintenanceAnnouncement", visibleAmong: visibleMaintenanceIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (m) => toHex(m.id) }),
    url: t.string({ resolve: (m, _a, ctx) => apiUrl(ctx, "maintenanceAnnouncement", m.id) }),
    name: t.exposeString("name"),
    message: t.exposeString("message"),
    internalNotes: t.exposeString("internalNotes"),
    maintenanceType: t.field({ type: MaintenanceTypeEnum, resolve: (m) => maintenanceTypes.ofStored(m.maintenanceType) }),
    maintenanceTypeCode: t.exposeInt("maintenanceType", { description: "Waldur's integer of the type" }),
    maintenanceTypeDisplay: t.string({ resolve: (m) => maintenanceTypeDisplay(m.maintenanceType) }),
    externalReferenceUrl: t.exposeString("externalReferenceUrl"),
    state: t.expose("state", { type: MaintenanceStateEnum }),
    stateLabel: t.string({ description: "Waldur's display label of the state", resolve: (m) => maintenanceStateLabel(m.state) }),
    scheduledStart: t.expose("scheduledStart", { type: "DateTime" }),
    scheduledEnd: t.expose("scheduledEnd", { type: "DateTime" }),
    actualStart: t.expose("actualStart", { type: "DateTime", nullable: true }),
    actualEnd: t.expose("actualEnd", { type: "DateTime", nullable: true }),
    startDeltaMinutes: t.int({
      nullable: true,
      description: "Whole minutes from the scheduled to the actual start (negative: early); null until started",
      select: SCHEDULE,
      resolve: (m) => timingOf(m).startDeltaMinutes,
    }),
    overrunMinutes: t.int({
      nullable: true,
      description: "Whole minutes from the scheduled to the actual end (negative: ended early); null until ended",
      select: SCHEDULE,
      resolve: (m) => timingOf(m).overrunMinutes,
    }),
    timingBucket: t.field({ type: TimingBucketEnum, select: SCHEDULE, resolve: (m) => timingOf(m).timingBucket }),
    timingBucketLabel: t.string({ description: "Waldur's label of the bucket", select: SCHEDULE, resolve: (m) => timingBucketLabel(timingOf(m).timingBucket) }),
    serviceProvider: t.relation("serviceProvider"),
    serviceProviderUuid: t.string({ resolve: (m) => toHex(m.serviceProviderId) }),
    serviceProviderUrl: t.string({ resolve: (m, _a, ctx) => apiUrl(ctx, "serviceProvider", m.serviceProviderId) }),
    serviceProviderName: t.string({
      select: { serviceProvider: { select: { customer: { select: { name: true } } } } },
      resolve: (m) => m.serviceProvider.customer.name,
    }),
    createdBy: t.relation("createdBy", { nullable: true }),
    createdByUrl: t.string({ nullable: true, resolve: (m, _a, ctx) => (m.createdById ? apiUrl(ctx, "user", m.createdById) : null) }),
    backendId: t.exposeString("backendId"),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
    affectedOfferings: t.relation("affectedOfferings", { query: { orderBy: [{ created: "asc" }, { id: "asc" }] } }),
    adminAnnouncement: t.relation("adminAnnouncement", { nullable: true }),
  }),
});

/** Waldur's PublicMaintenanceAnnouncement: no internal notes, creator or backend id. */
export const PublicMaintenanceAnnouncementRef = builder.prismaNode("MaintenanceAnnouncement", {
  ...visibleNode(getPublicMaintenance),
  variant: "PublicMaintenanceAnnouncement",
  fields: (t) => ({
    uuid: t.string({ resolve: (m) => toHex(m.id) }),
    url: t.string({ resolve: (m, _a, ctx) => apiUrl(ctx, "publicMaintenanceAnnouncement", m.id) }),
    name: t.exposeString("name"),
    message: t.exposeString("message"),
    maintenanceType: t.field({ type: MaintenanceTypeEnum, resolve: (m) => maintenanceTypes.ofStored(m.maintenanceType) }),
    maintenanceTypeCode: t.exposeInt("maintenanceType", { description: "Waldur's integer of the type" }),
    maintenanceTypeDisplay: t.string({ resolve: (m) => maintenanceTypeDisplay(m.maintenanceType) }),
    externalReferenceUrl: t.exposeString("externalReferenceUrl"),
    state: t.expose("state", { type: MaintenanceStateEnum }),
    stateLabel: t.string({ resolve: (m) => maintenanceStateLabel(m.state) }),
    scheduledStart: t.expose("scheduledStart", { type: "DateTime" }),
    scheduledEnd: t.expose("scheduledEnd", { type: "DateTime" }),
    actualStart: t.expose("actualStart", { type: "DateTime", nullable: true }),
    actualEnd: t.expose("actualEnd", { type: "DateTime", nullable: true }),
    serviceProviderUuid: t.string({ resolve: (m) => toHex(m.serviceProviderId) }),
    serviceProviderName: t.string({
      select: { serviceProvider: { select: { customer: { select: { name: true } } } } },
      resolve: (m) => m.serviceProvider.customer.name,
    }),
    affectedOfferings: t.relation("affectedOfferings", { query: { orderBy: [{ created: "asc" }, { id: "asc" }] } }),
  }),
});

interface AffectedOfferingSummary {
  uuid: string;
  name: string;
  impactLevel: number;
  impactDescription: string;
}

const AdminAnnouncementAffectedOfferingRef = builder.objectRef<AffectedOfferingSummary>("AdminAnnouncementAffectedOffering").implement({
  fields: (t) => ({
    uuid: t.exposeString("uuid"),
    name: t.exposeString("name"),
    impactLevel: t.field({ type: ImpactLevelEnum, resolve: (o) => impactLevels.ofStored(o.impactLevel) }),
    impactLevelCode: t.exposeInt("impactLevel", { description: "Waldur's integer of the impact level" }),
    impactLevelDisplay: t.string({ resolve: (o) => impactLevelDisplay(o.impactLevel) }),
    impactDescription: t.exposeString("impactDescription"),
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

/** A system notification; the maintenance* fields describe the maintenance it announces, if any (read-only). */
export const AdminAnnouncementRef = builder.prismaNode("AdminAnnouncement", {
  ...visibleNode(getAdminAnnouncement),
  fields: (t) => ({
    uuid: t.string({ resolve: (a) => toHex(a.id) }),
    url: t.string({ resolve: (a, _a, ctx) => apiUrl(ctx, "adminAnnouncement", a.id) }),
    description: t.exposeString("description"),
    type: t.expose("type", { type: AnnouncementTypeEnum }),
    typeLabel: t.string({ description: "information, warning or danger", resolve: (a) => ANNOUNCEMENT_TYPE_LABELS[a.type] }),
    activeFrom: t.expose("activeFrom", { type: "DateTime" }),
    activeTo: t.expose("activeTo", { type: "DateTime" }),
    isActive: t.boolean({ description: "active_from <= now < active_to, as the is_active filter", resolve: (a, _a, ctx) => a.activeFrom <= ctx.now() && ctx.now() < a.activeTo }),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
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
});
