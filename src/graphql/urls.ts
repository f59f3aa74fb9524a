import type { Context } from "../context.ts";
import { toHex } from "../platform/ids.ts";

/** The REST collection of each kind of object, for absolute `url` fields and for parsing them back. */
export const COLLECTIONS = {
  user: "users",
  customer: "customers",
  project: "projects",
  serviceProvider: "marketplace-service-providers",
  offering: "marketplace-provider-offerings",
  offeringUser: "marketplace-offering-users",
  event: "events",
  order: "marketplace-orders",
  providerResource: "marketplace-provider-resources",
  plan: "marketplace-plans",
  componentUsage: "marketplace-component-usages",
  componentUserUsage: "marketplace-component-user-usages",
  componentUserUsageLimit: "component-user-usage-limits",
  sshKey: "keys",
  maintenanceAnnouncement: "maintenance-announcements",
  maintenanceAnnouncementOffering: "maintenance-announcement-offerings",
  publicMaintenanceAnnouncement: "public-maintenance-announcements",
  adminAnnouncement: "admin-announcements",
  agentIdentity: "marketplace-site-agent-identities",
  agentService: "marketplace-site-agent-services",
  agentProcessor: "marketplace-site-agent-processors",
} as const;
export type Collection = keyof typeof COLLECTIONS;

export const apiUrl = (ctx: Pick<Context, "baseUrl">, kind: Collection, id: string | number) =>
  `${ctx.baseUrl}/api/${COLLECTIONS[kind]}/${typeof id === "number" ? id : toHex(id)}/`;
