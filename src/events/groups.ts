import type { Prisma } from "../generated/prisma/client.ts";

/**
 * Waldur's event groups (the `feature` filter). Waldur's loggers declare the event types of each group; here a group
 * names the types this service writes, by family (`marketplace_order_*`) or one by one. A group nothing here writes
 * into (invoices, support, …) and an unknown group match no event, as in Waldur.
 */
type TypeMatch = string | { prefix: string };

const SSH_KEYS: TypeMatch[] = ["ssh_key_creation_succeeded", "ssh_key_deletion_succeeded"];
const RESOURCE_CHANGES: TypeMatch = { prefix: "marketplace_resource_" };

const GROUPS: Readonly<Record<string, readonly TypeMatch[]>> = {
  auth: ["auth_logged_in_with_username", "auth_login_failed_with_username", "auth_logged_out", "token_created", "token_lifetime_updated"],
  users: [{ prefix: "user_" }, ...SSH_KEYS, { prefix: "marketplace_offering_user_" }],
  ssh: SSH_KEYS,
  permissions: [{ prefix: "role_" }],
  customers: [{ prefix: "customer_" }],
  projects: [{ prefix: "project_" }],
  resources: [{ prefix: "marketplace_order_" }, RESOURCE_CHANGES, { prefix: "component_user_usage_limit_" }],
  providers: [
    RESOURCE_CHANGES,
    { prefix: "marketplace_service_provider_" },
    "marketplace_offering_created",
    "marketplace_offering_updated",
    { prefix: "marketplace_site_agent_" },
  ],
  terms_of_service: [{ prefix: "terms_of_service_" }],
  maintenance: [{ prefix: "maintenance_announcement_" }, { prefix: "admin_announcement_" }],
};

/** Events whose type belongs to any of the groups (none for unknown groups). */
export function inEventGroups(groups: readonly string[]): Prisma.EventWhereInput {
  const matches = groups.flatMap((group) => (Object.hasOwn(GROUPS, group) ? GROUPS[group] : []));
  return {
    OR: [
      { eventType: { in: matches.filter((match): match is string => typeof match === "string") } },
      ...matches.flatMap((match) => (typeof match === "string" ? [] : [{ eventType: { startsWith: match.prefix } }])),
    ],
  };
}
