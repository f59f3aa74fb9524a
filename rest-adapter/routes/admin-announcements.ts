import { ADMIN_ANNOUNCEMENT_CONTRACT } from "../../src/maintenance/admin-announcements.ts";
import { announcementTypeFromLabel } from "../../src/maintenance/enums.ts";
import { fieldError, invalid } from "../../src/platform/errors.ts";
import { compact, optionalDateTime, optionalString, readAll } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { deleteRoute, listRoute, retrieveRoute } from "./common.ts";

const BASE = "/api/admin-announcements";

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

function announcementType(body: Record<string, unknown>) {
  const label = optionalString(body, "type");
  if (label === undefined || label === null) return label;
  const type = announcementTypeFromLabel(label);
  if (!type) throw fieldError("type", `"${label}" is not a valid choice.`);
  return type;
}

const REQUIRED = ["description", "active_from", "active_to"];

function announcementInput({ body }: RestRequest, full: boolean) {
  const input = readAll({
    required: () => {
      const missing = full ? REQUIRED.filter((field) => body[field] === undefined) : [];
      if (missing.length) throw invalid(Object.fromEntries(missing.map((field) => [field, ["This field is required."]])));
    },
    description: () => optionalString(body, "description"),
    type: () => announcementType(body),
    activeFrom: () => optionalDateTime(body, "active_from"),
    activeTo: () => optionalDateTime(body, "active_to"),
  });
  const { required: _checked, ...fields } = input;
  return { input: compact(fields) };
}

const update = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${BASE}/:uuid/`,
  summary: `${method === "PUT" ? "Update" : "Partially update"} a system announcement (staff)`,
  document: `mutation($uuid: ID!, $input: UpdateAdminAnnouncementInput!) { updateAdminAnnouncement(uuid: $uuid, input: $input) { ...AdminAnnouncementRest } }`,
  variables: (request) => ({ uuid: request.params.uuid, ...announcementInput(request, method === "PUT") }),
  kind: "object",
  shape: announcementBody,
});

export const adminAnnouncementRoutes: RouteSpec[] = [
  {
    ...listRoute({
      path: `${BASE}/`,
      summary: "List system announcements",
      field: "adminAnnouncements",
      type: "AdminAnnouncement",
      fragment: "AdminAnnouncementRest",
      contract: ADMIN_ANNOUNCEMENT_CONTRACT,
    }),
    // Applied to each item once the REST adapter reshapes list items (rest-adapter/app.ts).
    shape: announcementBody,
  },
  {
    method: "POST",
    path: `${BASE}/`,
    summary: "Create a system announcement (staff)",
    document: `mutation($input: CreateAdminAnnouncementInput!) { createAdminAnnouncement(input: $input) { ...AdminAnnouncementRest } }`,
    variables: (request) => announcementInput(request, true),
    kind: "object",
    status: 201,
    shape: announcementBody,
  },
  { ...retrieveRoute(BASE, "Retrieve a system announcement", "adminAnnouncement", "AdminAnnouncementRest"), shape: announcementBody },
  update("PUT"),
  update("PATCH"),
  deleteRoute(BASE, "Delete a system announcement (staff)", "deleteAdminAnnouncement", "{ uuid }"),
];
