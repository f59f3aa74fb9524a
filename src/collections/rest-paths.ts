/** The REST collection of each kind of object: absolute `url` fields are built from it and parsed back with it. */
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
  component: "marketplace-offering-components",
  componentUsage: "marketplace-component-usages",
  componentUserUsage: "marketplace-component-user-usages",
  componentUserUsageLimit: "component-user-usage-limits",
  sshKey: "keys",
  termsOfService: "marketplace-offering-terms-of-service",
  consent: "marketplace-user-offering-consents",
  maintenanceAnnouncement: "maintenance-announcements",
  maintenanceAnnouncementOffering: "maintenance-announcement-offerings",
  publicMaintenanceAnnouncement: "public-maintenance-announcements",
  adminAnnouncement: "admin-announcements",
  agentIdentity: "marketplace-site-agent-identities",
  agentService: "marketplace-site-agent-services",
  agentProcessor: "marketplace-site-agent-processors",
  eventSubscription: "event-subscriptions",
  eventSubscriptionQueue: "event-subscription-queues",
} as const;
export type Collection = keyof typeof COLLECTIONS;

/** Other views through which Waldur links the same objects; a hyperlink through any of them names the object. */
export const COLLECTION_ALIASES: Partial<Record<Collection, readonly string[]>> = {
  offering: ["marketplace-public-offerings"],
  providerResource: ["marketplace-resources"],
  plan: ["marketplace-public-plans"],
  serviceProvider: [],
};

export const collectionPaths = (kind: Collection): readonly string[] => [COLLECTIONS[kind], ...(COLLECTION_ALIASES[kind] ?? [])];
