import { MAINTENANCE_CONTRACT, MAINTENANCE_OFFERING_CONTRACT, PUBLIC_MAINTENANCE_CONTRACT } from "../../src/maintenance/contract.ts";
import { MAINTENANCE_ACTIONS, MAINTENANCE_TRANSITIONS } from "../../src/maintenance/transitions.ts";
import { fieldError, invalid } from "../../src/platform/errors.ts";
import { compact, hyperlink, optionalDateTime, optionalString, readAll } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { byUuid, deleteRoute, listRoute, retrieveRoute } from "./common.ts";

const BASE = "/api/maintenance-announcements";
const LINKS = "/api/maintenance-announcement-offerings";
const PUBLIC = "/api/public-maintenance-announcements";

/** A DRF ChoiceField of integers: 2 and "2" are accepted, anything else is not a valid choice. */
export function optionalChoiceInteger(body: Record<string, unknown>, field: string): number | null | undefined {
  const value = body[field];
  if (value === undefined || value === null) return value as null | undefined;
  const number = typeof value === "number" || typeof value === "string" ? Number(value) : Number.NaN;
  if (!Number.isInteger(number) || String(value).trim() === "") throw fieldError(field, `"${String(value)}" is not a valid choice.`);
  return number;
}

/** Fields that must be present on create and PUT; PATCH takes any subset. */
const REQUIRED = ["name", "scheduled_start", "scheduled_end", "service_provider"];

function maintenanceInput({ body }: RestRequest, full: boolean) {
  const present = (field: string) => body[field] !== undefined;
  const values = readAll({
    required: () => {
      const missing = full ? REQUIRED.filter((field) => !present(field)) : [];
      if (missing.length) throw invalid(Object.fromEntries(missing.map((field) => [field, ["This field is required."]])));
    },
    name: () => optionalString(body, "name"),
    message: () => optionalString(body, "message"),
    internalNotes: () => optionalString(body, "internal_notes"),
    maintenanceType: () => optionalChoiceInteger(body, "maintenance_type"),
    externalReferenceUrl: () => optionalString(body, "external_reference_url"),
    scheduledStart: () => optionalDateTime(body, "scheduled_start"),
    scheduledEnd: () => optionalDateTime(body, "scheduled_end"),
    serviceProviderUuid: () =>
      present("service_provider") ? hyperlink(body.service_provider, "service_provider", "marketplace-service-providers") : undefined,
  });
  const { required: _checked, ...input } = values;
  return { input: compact(input) };
}

const updateMaintenance = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${BASE}/:uuid/`,
  summary: method === "PUT" ? "Update a maintenance announcement" : "Partially update a maintenance announcement",
  document: `mutation($uuid: ID!, $input: UpdateMaintenanceAnnouncementInput!) {
    updateMaintenanceAnnouncement(uuid: $uuid, input: $input) { ...MaintenanceAnnouncementRest } }`,
  variables: (request) => ({ uuid: request.params.uuid, ...maintenanceInput(request, method === "PUT") }),
  kind: "object",
});

const actions: RouteSpec[] = MAINTENANCE_ACTIONS.map((action) => {
  const { effect, from, to } = MAINTENANCE_TRANSITIONS[action];
  return {
    method: "POST",
    path: `${BASE}/:uuid/${action}/`,
    summary: `Maintenance announcement action ${action}: ${from.join(", ")} → ${to}`,
    document: `mutation($uuid: ID!) { ${effect.mutation}(uuid: $uuid) { uuid } }`,
    variables: byUuid,
    kind: "object",
    shape: () => ({ detail: effect.detail }),
  };
});

function linkInput({ body }: RestRequest, full: boolean) {
  const present = (field: string) => body[field] !== undefined;
  const input = readAll({
    maintenanceUuid: () =>
      full || present("maintenance") ? hyperlink(body.maintenance, "maintenance", "maintenance-announcements") : undefined,
    offeringUuid: () =>
      full || present("offering") ? hyperlink(body.offering, "offering", "marketplace-provider-offerings") : undefined,
    impactLevel: () => optionalChoiceInteger(body, "impact_level"),
    impactDescription: () => optionalString(body, "impact_description"),
  });
  return { input: compact(input) };
}

const updateLink = (method: "PUT" | "PATCH"): RouteSpec => ({
  method,
  path: `${LINKS}/:uuid/`,
  summary: method === "PUT" ? "Update an affected offering" : "Partially update an affected offering",
  document: `mutation($uuid: ID!, $input: UpdateMaintenanceAnnouncementOfferingInput!) {
    updateMaintenanceAnnouncementOffering(uuid: $uuid, input: $input) { ...MaintenanceAnnouncementOfferingRest } }`,
  variables: (request) => ({ uuid: request.params.uuid, ...linkInput(request, method === "PUT") }),
  kind: "object",
});

export const maintenanceRoutes: RouteSpec[] = [
  listRoute({
    path: `${BASE}/`,
    summary: "List maintenance announcements of the providers the caller manages",
    field: "maintenanceAnnouncements",
    type: "MaintenanceAnnouncement",
    fragment: "MaintenanceAnnouncementRest",
    contract: MAINTENANCE_CONTRACT,
  }),
  {
    method: "POST",
    path: `${BASE}/`,
    summary: "Create a maintenance announcement (Draft)",
    document: `mutation($input: CreateMaintenanceAnnouncementInput!) { createMaintenanceAnnouncement(input: $input) { ...MaintenanceAnnouncementRest } }`,
    variables: (request) => maintenanceInput(request, true),
    kind: "object",
    status: 201,
  },
  retrieveRoute(BASE, "Retrieve a maintenance announcement", "maintenanceAnnouncement", "MaintenanceAnnouncementRest"),
  updateMaintenance("PUT"),
  updateMaintenance("PATCH"),
  deleteRoute(BASE, "Delete a maintenance announcement (and its system announcement)", "deleteMaintenanceAnnouncement", "{ uuid }"),
  ...actions,
  listRoute({
    path: `${LINKS}/`,
    summary: "List offerings affected by maintenance announcements",
    field: "maintenanceAnnouncementOfferings",
    type: "MaintenanceAnnouncementOffering",
    fragment: "MaintenanceAnnouncementOfferingRest",
    contract: MAINTENANCE_OFFERING_CONTRACT,
  }),
  {
    method: "POST",
    path: `${LINKS}/`,
    summary: "Link an offering to a maintenance announcement",
    document: `mutation($input: CreateMaintenanceAnnouncementOfferingInput!) {
      createMaintenanceAnnouncementOffering(input: $input) { ...MaintenanceAnnouncementOfferingRest } }`,
    variables: (request) => linkInput(request, true),
    kind: "object",
    status: 201,
  },
  retrieveRoute(LINKS, "Retrieve an affected offering", "maintenanceAnnouncementOffering", "MaintenanceAnnouncementOfferingRest"),
  updateLink("PUT"),
  updateLink("PATCH"),
  deleteRoute(LINKS, "Unlink an offering from a maintenance announcement", "deleteMaintenanceAnnouncementOffering", "{ uuid }"),
  {
    ...listRoute({
      path: `${PUBLIC}/`,
      summary: "Scheduled, in-progress and completed maintenance of every provider (no authentication)",
      field: "publicMaintenanceAnnouncements",
      type: "MaintenanceAnnouncement",
      fragment: "PublicMaintenanceAnnouncementRest",
      contract: PUBLIC_MAINTENANCE_CONTRACT,
    }),
    public: true,
  },
  { ...retrieveRoute(PUBLIC, "Retrieve a public maintenance announcement", "publicMaintenanceAnnouncement", "PublicMaintenanceAnnouncementRest"), public: true },
];
