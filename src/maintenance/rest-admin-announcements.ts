import { ANNOUNCEMENT_TYPE_LABELS } from "./enums.ts";
import { valuesByLabel } from "../collections/contract.ts";
import { COLLECTIONS } from "../collections/rest-paths.ts";
import { choice, dateTime, defineBody, text, withBody } from "../../rest-adapter/body-contract.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { createRoute, deleteRoute, listRoute, pathId, retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";
import { adminAnnouncementCollection } from "./schema-admin-announcements.ts";

const ADMIN_ANNOUNCEMENT_REST_FRAGMENT = restFragment(
  "AdminAnnouncementRest",
  "AdminAnnouncement",
  `uuid description active_from: activeFrom active_to: activeTo is_active: isActive type: typeLabel created
   maintenance_uuid: maintenanceUuid maintenance_name: maintenanceName maintenance_type: maintenanceTypeCode
   maintenance_state: maintenanceStateLabel maintenance_scheduled_start: maintenanceScheduledStart
   maintenance_scheduled_end: maintenanceScheduledEnd maintenance_service_provider: maintenanceServiceProvider
   maintenance_affected_offerings: maintenanceAffectedOfferings {
     uuid name impact_level: impactLevelCode impact_level_display: impactLevelDisplay impact_description: impactDescription }
   maintenance_external_reference_url: maintenanceExternalReferenceUrl`,
);

const BASE = `/api/${COLLECTIONS.adminAnnouncement}`;

/** The maintenance fields py-client parses as strings and datetimes that may not be null. */
const MAINTENANCE_FIELDS = [
  "maintenance_uuid", "maintenance_name", "maintenance_type", "maintenance_state", "maintenance_scheduled_start",
  "maintenance_scheduled_end", "maintenance_service_provider", "maintenance_external_reference_url",
];

type AnnouncementBody = Record<string, unknown> & { maintenance_affected_offerings?: Array<Record<string, unknown>> };

/**
 * Waldur's published model: an announcement that announces no maintenance leaves the maintenance fields out
 * (py-client cannot parse them as null), and the maintenance type and impact levels are strings.
 */
export function announcementBody(announcement: AnnouncementBody): AnnouncementBody {
  const body: AnnouncementBody = { ...announcement };
  for (const field of MAINTENANCE_FIELDS) {
    if (body[field] === null) delete body[field];
    else if (field === "maintenance_type" && typeof body[field] === "number") body[field] = String(body[field]);
  }
  if (body.maintenance_affected_offerings) {
    body.maintenance_affected_offerings = body.maintenance_affected_offerings.map((offering) => ({
      ...offering,
      impact_level: String(offering.impact_level),
    }));
  }
  return body;
}

/** The announcement type by its label; `null` is left to the domain, which refuses it with the body's other field errors. */
const announcementType = choice(valuesByLabel(ANNOUNCEMENT_TYPE_LABELS));

/** An announcement's fields; create and PUT need the window (`required`), PATCH takes any subset. */
const announcementFields = (required: boolean) => ({
  description: text(),
  type: announcementType,
  active_from: dateTime({ required }),
  active_to: dateTime({ required }),
});
const ANNOUNCEMENT_FULL = defineBody(announcementFields(true));
const ANNOUNCEMENT_PARTIAL = defineBody(announcementFields(false));

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${BASE}/:uuid/`,
  summary: `${method === "PUT" ? "Update" : "Partially update"} a system announcement (staff)`,
  document: `mutation($input: UpdateAdminAnnouncementInput!) { updateAdminAnnouncement(input: $input) { ...AdminAnnouncementRest } }`,
  ...withBody(method === "PUT" ? ANNOUNCEMENT_FULL : ANNOUNCEMENT_PARTIAL, (input, request) => ({ input: { id: pathId("AdminAnnouncement", request), ...input } })),
  kind: "object",
  shape: announcementBody,
});

const adminAnnouncementRoutes: RouteSpec[] = [
  {
    ...listRoute({ path: `${BASE}/`, summary: "List system announcements", collection: adminAnnouncementCollection }),
    // Applied to each item once the REST adapter reshapes list items (rest-adapter/app.ts).
    shape: announcementBody,
  },
  { ...createRoute(`${BASE}/`, "Create a system announcement (staff)", "createAdminAnnouncement", "AdminAnnouncementRest", ANNOUNCEMENT_FULL), shape: announcementBody },
  { ...retrieveRoute(BASE, "Retrieve a system announcement", adminAnnouncementCollection), shape: announcementBody },
  update("PUT"),
  update("PATCH"),
  deleteRoute(BASE, "Delete a system announcement (staff)", adminAnnouncementCollection),
];

export const adminAnnouncementRest: RestSurface = {
  routes: adminAnnouncementRoutes,
  fragments: [ADMIN_ANNOUNCEMENT_REST_FRAGMENT],
};
