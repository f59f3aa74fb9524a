import { labelledValues } from "../graphql/labelled-values.ts";
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
import { getMaintenanceOffering } from "./service-offerings.ts";
import { getMaintenance, visibleMaintenanceIds } from "./service.ts";
import { getPublicMaintenance } from "./service-public.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";

export const MaintenanceStateEnum = builder.enumType("MaintenanceState", {
  values: labelledValues(MAINTENANCE_STATES),
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

/**
 * A link of an offering to an announcement. No relations, as the public view nests it for anonymous callers, who may
 * not read offerings or announcements: it names its offering and announcement itself.
 */
export const MaintenanceAnnouncementOfferingRef = builder.prismaNode("MaintenanceAnnouncementOffering", {
  ...visibleNode(getMaintenanceOffering),
  fields: (t) => ({
    uuid: t.string({ resolve: (l) => toHex(l.id) }),
    maintenanceUuid: t.string({ resolve: (l) => toHex(l.maintenanceId) }),
    offeringUuid: t.string({ resolve: (l) => toHex(l.offeringId) }),
    offeringName: t.string({ select: { offering: { select: { name: true } } }, resolve: (l) => l.offering.name }),
    impactLevel: t.field({ type: ImpactLevelEnum, resolve: (l) => impactLevels.ofStored(l.impactLevel) }),
    impactDescription: t.exposeString("impactDescription"),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
    ...restPresentation({
      url: t.string({ resolve: (l, _a, ctx) => apiUrl(ctx, "maintenanceAnnouncementOffering", l.id) }),
      maintenanceUrl: t.string({ resolve: (l, _a, ctx) => apiUrl(ctx, "maintenanceAnnouncement", l.maintenanceId) }),
      offeringUrl: t.string({ resolve: (l, _a, ctx) => apiUrl(ctx, "offering", l.offeringId) }),
      impactLevelCode: t.exposeInt("impactLevel", { description: "Waldur's integer of the impact level" }),
      impactLevelDisplay: t.string({ resolve: (l) => impactLevelDisplay(l.impactLevel) }),
    }),
  }),
});

/** The provider's view of an announcement, internal fields included. */
export const MaintenanceAnnouncementRef = builder.prismaNode("MaintenanceAnnouncement", {
  ...visibleNode(getMaintenance, { type: "MaintenanceAnnouncement", visibleAmong: visibleMaintenanceIds }),
  fields: (t) => ({
    uuid: t.string({ resolve: (m) => toHex(m.id) }),
    name: t.exposeString("name"),
    message: t.exposeString("message"),
    internalNotes: t.exposeString("internalNotes"),
    maintenanceType: t.field({ type: MaintenanceTypeEnum, resolve: (m) => maintenanceTypes.ofStored(m.maintenanceType) }),
    externalReferenceUrl: t.exposeString("externalReferenceUrl"),
    state: t.expose("state", { type: MaintenanceStateEnum }),
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
    serviceProvider: t.relation("serviceProvider"),
    createdBy: t.relation("createdBy", { nullable: true }),
    backendId: t.exposeString("backendId"),
    created: t.expose("created", { type: "DateTime" }),
    modified: t.expose("modified", { type: "DateTime" }),
    affectedOfferings: t.relation("affectedOfferings", { query: { orderBy: [{ created: "asc" }, { id: "asc" }] } }),
    adminAnnouncement: t.relation("adminAnnouncement", { nullable: true }),
    ...restPresentation({
      url: t.string({ resolve: (m, _a, ctx) => apiUrl(ctx, "maintenanceAnnouncement", m.id) }),
      maintenanceTypeCode: t.exposeInt("maintenanceType", { description: "Waldur's integer of the type" }),
      maintenanceTypeDisplay: t.string({ resolve: (m) => maintenanceTypeDisplay(m.maintenanceType) }),
      stateLabel: t.string({ description: "Waldur's display label of the state", resolve: (m) => maintenanceStateLabel(m.state) }),
      timingBucketLabel: t.string({ description: "Waldur's label of the bucket", select: SCHEDULE, resolve: (m) => timingBucketLabel(timingOf(m).timingBucket) }),
      serviceProviderUuid: t.string({ resolve: (m) => toHex(m.serviceProviderId) }),
      serviceProviderUrl: t.string({ resolve: (m, _a, ctx) => apiUrl(ctx, "serviceProvider", m.serviceProviderId) }),
      serviceProviderName: t.string({
        select: { serviceProvider: { select: { customer: { select: { name: true } } } } },
        resolve: (m) => m.serviceProvider.customer.name,
      }),
      createdByUrl: t.string({ nullable: true, resolve: (m, _a, ctx) => (m.createdById ? apiUrl(ctx, "user", m.createdById) : null) }),
    }),
  }),
});

/**
 * Waldur's PublicMaintenanceAnnouncement: no internal notes, creator or backend id. Anonymous callers read it, and may
 * not read the service provider: it names the provider itself.
 */
export const PublicMaintenanceAnnouncementRef = builder.prismaNode("MaintenanceAnnouncement", {
  ...visibleNode(getPublicMaintenance),
  variant: "PublicMaintenanceAnnouncement",
  fields: (t) => ({
    uuid: t.string({ resolve: (m) => toHex(m.id) }),
    name: t.exposeString("name"),
    message: t.exposeString("message"),
    maintenanceType: t.field({ type: MaintenanceTypeEnum, resolve: (m) => maintenanceTypes.ofStored(m.maintenanceType) }),
    externalReferenceUrl: t.exposeString("externalReferenceUrl"),
    state: t.expose("state", { type: MaintenanceStateEnum }),
    ...restPresentation({
      url: t.string({ resolve: (m, _a, ctx) => apiUrl(ctx, "publicMaintenanceAnnouncement", m.id) }),
      maintenanceTypeCode: t.exposeInt("maintenanceType", { description: "Waldur's integer of the type" }),
      maintenanceTypeDisplay: t.string({ resolve: (m) => maintenanceTypeDisplay(m.maintenanceType) }),
      stateLabel: t.string({ resolve: (m) => maintenanceStateLabel(m.state) }),
    }),
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
