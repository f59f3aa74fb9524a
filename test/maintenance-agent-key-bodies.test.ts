import { describe, expect, it } from "vitest";
import { EVENT_CONTRACT } from "../src/events/contract.ts";
import { globalId } from "./support/global-ids.ts";
import { MAINTENANCE_ACTIONS } from "../src/maintenance/transitions.ts";
import type { RouteSpec } from "../rest-adapter/route.ts";
import { adminAnnouncementRest } from "../src/maintenance/rest-admin-announcements.ts";
import { eventRest } from "../src/events/rest.ts";
import { maintenanceRest } from "../src/maintenance/rest.ts";
import { siteAgentRest } from "../src/site-agents/rest.ts";
import { sshKeyRest } from "../src/ssh-keys/rest.ts";

const UUID = "0123456789abcdef0123456789abcdef";
const ROUTES = [...maintenanceRest.routes, ...adminAnnouncementRest.routes, ...siteAgentRest.routes, ...sshKeyRest.routes];

const route = (method: string, path: string) => {
  const found = [...ROUTES, ...eventRest.routes].find((r) => r.method === method && r.path === path);
  if (!found) throw new Error(`no route ${method} ${path}`);
  return found;
};
const variables = (spec: RouteSpec, body: Record<string, unknown>) => spec.variables!({ params: { uuid: UUID }, query: new URLSearchParams(), body });

describe("bodies are declared", () => {
  it("every write route declares its body, but the announcement actions, which read none", () => {
    const undeclared = ROUTES.filter((r) => ["POST", "PUT", "PATCH"].includes(r.method) && !r.body).map((r) => r.path);
    expect(undeclared).toEqual(MAINTENANCE_ACTIONS.map((action) => `/api/maintenance-announcements/:uuid/${action}/`));
  });

  it.each([
    ["/api/maintenance-announcements/", ["name", "scheduled_start", "scheduled_end", "service_provider"]],
    ["/api/maintenance-announcement-offerings/", ["maintenance", "offering"]],
    ["/api/admin-announcements/", ["active_from", "active_to"]],
  ])("%s: create and PUT require %j, PATCH nothing", (collection, required) => {
    expect(route("POST", collection).body?.schema.required).toEqual(required);
    expect(route("PUT", `${collection}:uuid/`).body?.schema.required).toEqual(required);
    expect(route("PATCH", `${collection}:uuid/`).body?.schema.required).toBeUndefined();
  });

  it("the events count documents the list's filters", () => {
    expect(route("GET", "/api/events/count/").query?.filters).toBe(EVENT_CONTRACT.filters);
  });
});

describe("the readers keep their semantics", () => {
  it("maintenance: a choice may be a numeric string, read as its enum value; a null name goes on to the domain", () => {
    const { input } = variables(route("PATCH", "/api/maintenance-announcements/:uuid/"), { maintenance_type: "2", name: null });
    expect(input).toEqual({ id: globalId("MaintenanceAnnouncement", UUID), maintenanceType: "EMERGENCY", name: null });
    const link = variables(route("PATCH", "/api/maintenance-announcement-offerings/:uuid/"), { impact_level: 4 });
    expect(link).toEqual({ input: { id: globalId("MaintenanceAnnouncementOffering", UUID), impactLevel: "FULL_OUTAGE" } });
  });

  it("ssh keys: a null name and a null or empty user count as absent", () => {
    const create = route("POST", "/api/keys/");
    expect(variables(create, { public_key: "k", name: null, user: "" })).toEqual({ input: { publicKey: "k" } });
    expect(variables(create, { public_key: "k", user: null })).toEqual({ input: { publicKey: "k" } });
  });

  it("site agents: the offering's last path segment is read; a missing registration name reads as empty", () => {
    const create = route("POST", "/api/marketplace-site-agent-identities/");
    expect(variables(create, { offering: `https://x/api/marketplace-provider-offerings/${UUID}/` })).toEqual({ input: { offeringUuid: UUID } });
    expect(variables(route("POST", "/api/marketplace-site-agent-identities/:uuid/register_service/"), { mode: null })).toEqual({ uuid: UUID, name: "", mode: null });
  });
});
