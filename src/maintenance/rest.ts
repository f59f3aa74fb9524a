import { MAINTENANCE_CONTRACT, PUBLIC_MAINTENANCE_CONTRACT } from "./contract.ts";
import { impactLevels, maintenanceTypes } from "./enums.ts";
import { MAINTENANCE_ACTIONS, MAINTENANCE_TRANSITIONS } from "./transitions.ts";
import { COLLECTIONS } from "../collections/rest-paths.ts";
import { fieldError } from "../platform/errors.ts";
import type { Filter } from "../collections/contract.ts";
import { bodyField, dateTime, defineBody, link, text, withBody } from "../../rest-adapter/body-contract.ts";
import { readFilters, readOrdering } from "../../rest-adapter/collection-query.ts";
import { compact } from "../../rest-adapter/input.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { byId, createRoute, deleteRoute, listRoute, pathId, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { maintenanceAnnouncementOfferingCollection } from "./schema-offerings.ts";
import { maintenanceAnnouncementCollection } from "./schema.ts";
import { publicMaintenanceAnnouncementCollection } from "./schema-public.ts";
import type { CollectionNames } from "../collections/type-names.ts";

/** Routes include only the fragments their document names, so the nested link fields are spelled out. */
const MAINTENANCE_OFFERING_FIELDS = `url uuid maintenance: maintenanceUrl offering: offeringUrl offering_name: offeringName
  impact_level: impactLevelCode impact_level_display: impactLevelDisplay impact_description: impactDescription`;

const PUBLIC_MAINTENANCE_FIELDS = `url uuid name message maintenance_type: maintenanceTypeCode
  maintenance_type_display: maintenanceTypeDisplay external_reference_url: externalReferenceUrl state: stateLabel
  scheduled_start: scheduledStart scheduled_end: scheduledEnd actual_start: actualStart actual_end: actualEnd
  service_provider_name: serviceProviderName affected_offerings: affectedOfferings { ${MAINTENANCE_OFFERING_FIELDS} }`;

const MAINTENANCE_ANNOUNCEMENT_OFFERING_REST_FRAGMENT = restFragment(
  "MaintenanceAnnouncementOfferingRest",
  "MaintenanceAnnouncementOffering",
  MAINTENANCE_OFFERING_FIELDS,
);

const MAINTENANCE_ANNOUNCEMENT_REST_FRAGMENT = restFragment(
  "MaintenanceAnnouncementRest",
  "MaintenanceAnnouncement",
  `${PUBLIC_MAINTENANCE_FIELDS}
   internal_notes: internalNotes service_provider: serviceProviderUrl created_by: createdByUrl backend_id: backendId
   overrun_minutes: overrunMinutes start_delta_minutes: startDeltaMinutes timing_bucket: timingBucketLabel`,
);

const PUBLIC_MAINTENANCE_ANNOUNCEMENT_REST_FRAGMENT = restFragment(
  "PublicMaintenanceAnnouncementRest",
  "PublicMaintenanceAnnouncement",
  PUBLIC_MAINTENANCE_FIELDS,
);

const BASE = `/api/${COLLECTIONS.maintenanceAnnouncement}`;
const LINKS = `/api/${COLLECTIONS.maintenanceAnnouncementOffering}`;
const PUBLIC = `/api/${COLLECTIONS.publicMaintenanceAnnouncement}`;

/**
 * A DRF ChoiceField of integers: 2 and "2" read as the GraphQL enum value whose integer is 2; other values are not a
 * valid choice. `null` is passed on, for the domain to refuse with the body's other field errors.
 */
const integerChoice = <V extends string>(values: { ofCode: (code: number) => V | undefined; byRestSpelling: Record<string, V> }) =>
  bodyField({}, { type: "integer", enum: Object.keys(values.byRestSpelling).map(Number) }, (value, name): V | null => {
    if (value === null) return null;
    const number = typeof value === "number" || typeof value === "string" ? Number(value) : Number.NaN;
    const chosen = Number.isInteger(number) && String(value).trim() !== "" ? values.ofCode(number) : undefined;
    if (chosen === undefined) throw fieldError(name, `"${String(value)}" is not a valid choice.`);
    return chosen;
  });

/** An announcement's fields; create and PUT need the `required` ones, PATCH takes any subset. */
const announcementFields = (required: boolean) => ({
  name: text({ required }),
  message: text(),
  internal_notes: text(),
  maintenance_type: integerChoice(maintenanceTypes),
  external_reference_url: text(),
  scheduled_start: dateTime({ required }),
  scheduled_end: dateTime({ required }),
  service_provider: link("serviceProvider", { required, as: "serviceProviderUuid" }),
});
const ANNOUNCEMENT_FULL = defineBody(announcementFields(true));
const ANNOUNCEMENT_PARTIAL = defineBody(announcementFields(false));

/** An affected offering's fields; create and PUT need both links, PATCH takes any subset. */
const linkFields = (required: boolean) => ({
  maintenance: link("maintenanceAnnouncement", { required, as: "maintenanceUuid" }),
  offering: link("offering", { required, as: "offeringUuid" }),
  impact_level: integerChoice(impactLevels),
  impact_description: text(),
});
const LINK_FULL = defineBody(linkFields(true));
const LINK_PARTIAL = defineBody(linkFields(false));

const updateMaintenance = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${BASE}/:uuid/`,
  summary: method === "PUT" ? "Update a maintenance announcement" : "Partially update a maintenance announcement",
  document: `mutation($input: UpdateMaintenanceAnnouncementInput!) {
    updateMaintenanceAnnouncement(input: $input) { ...MaintenanceAnnouncementRest } }`,
  ...withBody(method === "PUT" ? ANNOUNCEMENT_FULL : ANNOUNCEMENT_PARTIAL, (input, request) => ({ input: { id: pathId("MaintenanceAnnouncement", request), ...input } })),
  kind: "object",
});

const actions: RouteSpec[] = MAINTENANCE_ACTIONS.map((action) => {
  const { mutation, effect, from, to } = MAINTENANCE_TRANSITIONS[action];
  return {
    method: "POST",
    path: `${BASE}/:uuid/${action}/`,
    summary: `Maintenance announcement action ${action}: ${from.join(", ")} → ${to}`,
    document: `mutation($id: ID!) { ${mutation}(input: { id: $id }) { uuid } }`,
    variables: byId("MaintenanceAnnouncement"),
    kind: "object",
    shape: () => ({ detail: effect.detail }),
  };
});

const updateLink = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${LINKS}/:uuid/`,
  summary: method === "PUT" ? "Update an affected offering" : "Partially update an affected offering",
  document: `mutation($input: UpdateMaintenanceAnnouncementOfferingInput!) {
    updateMaintenanceAnnouncementOffering(input: $input) { ...MaintenanceAnnouncementOfferingRest } }`,
  ...withBody(method === "PUT" ? LINK_FULL : LINK_PARTIAL, (input, request) => ({ input: { id: pathId("MaintenanceAnnouncementOffering", request), ...input } })),
  kind: "object",
});

/** Waldur's maintenance_type filter is a NumberFilter: one whole number, the last given. */
const TYPE_NUMBER: Filter<unknown> = { kind: "int", rest: "maintenance_type", description: "1-5", where: (maintenanceType) => ({ maintenanceType }) };

/** The number feeds the GraphQL filter's types: its own, or none when it is no type (the list is then empty, as Waldur's). */
function typesOfNumber(filter: Record<string, unknown> | undefined) {
  if (typeof filter?.maintenanceType !== "number") return filter;
  const type = maintenanceTypes.ofCode(filter.maintenanceType);
  return { ...filter, maintenanceType: type ? [type] : [] };
}

/** A list of announcements, whose query string reads maintenance_type as Waldur does. */
function announcementList(path: string, summary: string, collection: CollectionNames, contract: typeof MAINTENANCE_CONTRACT, fragment?: string): RouteSpec {
  const rest = { ...contract, filters: { ...contract.filters, maintenanceType: TYPE_NUMBER } };
  return {
    ...listRoute({ path, summary, collection: { ...collection, contract: rest }, fragment }),
    variables: ({ query }) => compact({ filter: typesOfNumber(readFilters(rest, query)), orderBy: readOrdering(rest, query) }),
  };
}

const maintenanceRoutes: RouteSpec[] = [
  announcementList(`${BASE}/`, "List maintenance announcements of the providers the caller manages", maintenanceAnnouncementCollection, MAINTENANCE_CONTRACT),
  createRoute(`${BASE}/`, "Create a maintenance announcement (Draft)", "createMaintenanceAnnouncement", "MaintenanceAnnouncementRest", ANNOUNCEMENT_FULL),
  retrieveRoute(BASE, "Retrieve a maintenance announcement", maintenanceAnnouncementCollection),
  updateMaintenance("PUT"),
  updateMaintenance("PATCH"),
  deleteRoute(BASE, "Delete a maintenance announcement (and its system announcement)", maintenanceAnnouncementCollection),
  ...actions,
  listRoute({
    path: `${LINKS}/`,
    summary: "List offerings affected by maintenance announcements",
    collection: maintenanceAnnouncementOfferingCollection,
  }),
  {
    method: "POST",
    path: `${LINKS}/`,
    summary: "Link an offering to a maintenance announcement",
    document: `mutation($input: CreateMaintenanceAnnouncementOfferingInput!) {
      createMaintenanceAnnouncementOffering(input: $input) { ...MaintenanceAnnouncementOfferingRest } }`,
    ...withBody(LINK_FULL, (input) => ({ input })),
    kind: "object",
    status: 201,
  },
  retrieveRoute(LINKS, "Retrieve an affected offering", maintenanceAnnouncementOfferingCollection),
  updateLink("PUT"),
  updateLink("PATCH"),
  deleteRoute(LINKS, "Unlink an offering from a maintenance announcement", maintenanceAnnouncementOfferingCollection),
  {
    ...announcementList(
      `${PUBLIC}/`,
      "Scheduled, in-progress and completed maintenance of every provider (no authentication)",
      publicMaintenanceAnnouncementCollection,
      PUBLIC_MAINTENANCE_CONTRACT,
      "PublicMaintenanceAnnouncementRest",
    ),
    public: true,
  },
  { ...retrieveRoute(PUBLIC, "Retrieve a public maintenance announcement", publicMaintenanceAnnouncementCollection, "PublicMaintenanceAnnouncementRest"), public: true },
];

export const maintenanceRest: RestSurface = {
  routes: maintenanceRoutes,
  fragments: [
    MAINTENANCE_ANNOUNCEMENT_OFFERING_REST_FRAGMENT,
    MAINTENANCE_ANNOUNCEMENT_REST_FRAGMENT,
    PUBLIC_MAINTENANCE_ANNOUNCEMENT_REST_FRAGMENT,
  ],
};
