import { ADMIN_ANNOUNCEMENT_ORDER, type AdminAnnouncementOrder } from "../../src/maintenance/admin-announcements.ts";
import { announcementTypeFromLabel } from "../../src/maintenance/enums.ts";
import { fieldError, invalid } from "../../src/platform/errors.ts";
import { booleanParam, choices, compact, optionalDateTime, optionalString, ordering, queryValue, readAll } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { retrieveRoute, deleteRoute } from "./common.ts";

const BASE = "/api/admin-announcements";

const ORDER: Record<string, AdminAnnouncementOrder> = Object.fromEntries(
  (Object.keys(ADMIN_ANNOUNCEMENT_ORDER) as AdminAnnouncementOrder[]).map((order) => {
    const field = order.replace(/_(ASC|DESC)$/, "").toLowerCase();
    return [order.endsWith("_DESC") ? `-${field}` : field, order];
  }),
);

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
});

export const adminAnnouncementRoutes: RouteSpec[] = [
  {
    method: "GET",
    path: `${BASE}/`,
    summary: "List system announcements",
    document: `query($filter: AdminAnnouncementFilter, $orderBy: [AdminAnnouncementOrder!], $first: Int, $offset: Int) {
      adminAnnouncements(filter: $filter, orderBy: $orderBy, first: $first, offset: $offset) { totalCount nodes { ...AdminAnnouncementRest } } }`,
    variables: ({ query }) =>
      compact({
        filter: compact({
          description: queryValue(query, "description"),
          isActive: booleanParam(query, "is_active"),
          type: choices(query, "type", announcementTypeFromLabel),
        }),
        orderBy: ordering(query, ORDER),
      }),
    kind: "list",
  },
  {
    method: "POST",
    path: `${BASE}/`,
    summary: "Create a system announcement (staff)",
    document: `mutation($input: CreateAdminAnnouncementInput!) { createAdminAnnouncement(input: $input) { ...AdminAnnouncementRest } }`,
    variables: (request) => announcementInput(request, true),
    kind: "object",
    status: 201,
  },
  retrieveRoute(BASE, "Retrieve a system announcement", "adminAnnouncement", "AdminAnnouncementRest"),
  update("PUT"),
  update("PATCH"),
  deleteRoute(BASE, "Delete a system announcement (staff)", "deleteAdminAnnouncement", "{ uuid }"),
];
