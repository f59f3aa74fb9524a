import type { Context } from "../../src/context.ts";
import { CUSTOMER_CONTRACT } from "../../src/directory/customers-contract.ts";
import { OFFERING_CONTRACT } from "../../src/directory/offerings-contract.ts";
import { PROJECT_CONTRACT } from "../../src/directory/projects-contract.ts";
import { SERVICE_PROVIDER_CONTRACT } from "../../src/directory/service-providers-contract.ts";
import { USER_CONTRACT } from "../../src/directory/users-contract.ts";
import { visibleCustomers, visibleOfferings, visibleProjects, visibleUsers } from "../../src/directory/visibility.ts";
import { EVENT_SUBSCRIPTION_CONTRACT, EVENT_SUBSCRIPTION_QUEUE_CONTRACT } from "../../src/event-subscriptions/contract.ts";
import { visibleSubscriptions } from "../../src/event-subscriptions/service.ts";
import { EVENT_CONTRACT } from "../../src/events/contract.ts";
import { visibleEvents } from "../../src/events/visibility.ts";
import { ADMIN_ANNOUNCEMENT_CONTRACT } from "../../src/maintenance/service-admin-announcements.ts";
import { MAINTENANCE_CONTRACT, MAINTENANCE_OFFERING_CONTRACT, type MaintenanceRequest, PUBLIC_MAINTENANCE_CONTRACT } from "../../src/maintenance/contract.ts";
import { visibleMaintenance } from "../../src/maintenance/visibility.ts";
import { OFFERING_USER_CONTRACT } from "../../src/offering-users/contract.ts";
import { visibleOfferingUsers } from "../../src/offering-users/visibility.ts";
import { ORDER_CONTRACT } from "../../src/orders/contract.ts";
import { visibleOrders } from "../../src/orders/visibility.ts";
import { type CollectionContract, contractOrderBy, contractWhere, orderValues } from "../../src/collections/contract.ts";
import type { ModelKey } from "../../src/platform/reads/sql/find.ts";
import { RESOURCE_CONTRACT } from "../../src/resources/contract.ts";
import type { LookupEnv } from "../../src/resources/lookups.ts";
import { providerResources, visibleResources } from "../../src/resources/visibility.ts";
import { AGENT_IDENTITY_CONTRACT } from "../../src/site-agents/contract.ts";
import { visibleAgentIdentities } from "../../src/site-agents/visibility.ts";
import { SSH_KEY_CONTRACT } from "../../src/ssh-keys/contract.ts";
import { visibleSshKeys } from "../../src/ssh-keys/visibility.ts";
import { CONSENT_CONTRACT, TERMS_CONTRACT } from "../../src/terms-of-service/contract.ts";
import { visibleTerms } from "../../src/terms-of-service/visibility.ts";
import { COMPONENT_USAGE_CONTRACT, COMPONENT_USER_USAGE_CONTRACT } from "../../src/usage/contract.ts";
import { USER_LIMIT_CONTRACT } from "../../src/usage/user-limits-contract.ts";
import { visibleComponentUsages, visibleComponentUserUsages } from "../../src/usage/visibility.ts";

/**
 * Every collection contract with the model its list reads and the viewer's visibility rule (where the domain exports
 * one), so that a test can turn any filter value or order of any list into the Prisma arguments the list would read.
 */
export interface ContractReads {
  name: string;
  model: ModelKey;
  filters: CollectionContract["filters"];
  /** The list's condition for this viewer under these filter values: the visibility AND the filters' conditions. */
  where(ctx: Context, values: Readonly<Record<string, unknown>>): Promise<object>;
  /** Each order value (`USERNAME_DESC`) with its Prisma `orderBy`, tiebreak included; none for a computed order. */
  orders: ReadonlyArray<{ value: string; orderBy: unknown[] }>;
  /** The list's order without one chosen, as a Prisma `orderBy`; none for a computed order. */
  defaultOrder?: unknown[];
}

interface Parts<W> {
  /** The viewer's visibility; every row without one. */
  visible?: (ctx: Context) => Promise<W> | W;
  /** The filters' conditions, given the request the contract's filters take. */
  narrow(values: Readonly<Record<string, unknown>>, ctx: Context, visible: W | undefined): Promise<unknown[]>;
  /** The orders are Prisma's (not computed in SQL, as maintenance's are). */
  prismaOrders?: boolean;
}

function reads<W>(name: string, model: ModelKey, contract: CollectionContract, parts: Parts<W>): ContractReads {
  const prismaOrders = parts.prismaOrders !== false;
  const orders = prismaOrders ? [...orderValues(contract).keys()].map((value) => ({ value, orderBy: contractOrderBy(contract, [value]).flat() })) : [];
  return {
    defaultOrder: prismaOrders ? contractOrderBy(contract, null).flat() : undefined,
    name,
    model,
    filters: contract.filters,
    async where(ctx, values) {
      const visible = await parts.visible?.(ctx);
      return { AND: [visible ?? {}, ...(await parts.narrow(values, ctx, visible))] };
    },
    orders,
  };
}

type Values = Readonly<Record<string, unknown>>;
/** A contract whose filters take no request, or the request context. */
const plain = (contract: CollectionContract) => (values: Values) => contractWhere(contract, values);
const withContext = (contract: CollectionContract<unknown, unknown, Context>) => (values: Values, ctx: Context) => contractWhere(contract, values, ctx);

export const CONTRACT_READS: readonly ContractReads[] = [
  reads("customers", "customer", CUSTOMER_CONTRACT, { visible: visibleCustomers, narrow: withContext(CUSTOMER_CONTRACT) }),
  reads("offerings", "offering", OFFERING_CONTRACT, { visible: visibleOfferings, narrow: withContext(OFFERING_CONTRACT) }),
  reads("projects", "project", PROJECT_CONTRACT, { visible: visibleProjects, narrow: withContext(PROJECT_CONTRACT) }),
  reads("service providers", "serviceProvider", SERVICE_PROVIDER_CONTRACT, { narrow: plain(SERVICE_PROVIDER_CONTRACT) }),
  reads("users", "user", USER_CONTRACT, { visible: visibleUsers, narrow: withContext(USER_CONTRACT) }),
  reads("event subscriptions", "eventSubscription", EVENT_SUBSCRIPTION_CONTRACT, { visible: visibleSubscriptions, narrow: plain(EVENT_SUBSCRIPTION_CONTRACT) }),
  reads("event subscription queues", "eventSubscriptionQueue", EVENT_SUBSCRIPTION_QUEUE_CONTRACT, { narrow: plain(EVENT_SUBSCRIPTION_QUEUE_CONTRACT) }),
  reads("events", "event", EVENT_CONTRACT, { visible: visibleEvents, narrow: plain(EVENT_CONTRACT) }),
  ...[MAINTENANCE_CONTRACT, PUBLIC_MAINTENANCE_CONTRACT].map((contract, i) =>
    reads(i ? "public maintenance" : "maintenance", "maintenanceAnnouncement", contract, {
      visible: visibleMaintenance,
      narrow: (values, ctx, within = {}) => contractWhere<unknown, MaintenanceRequest>(contract, values, { ctx, within }),
      prismaOrders: false,
    }),
  ),
  reads("maintenance offerings", "maintenanceAnnouncementOffering", MAINTENANCE_OFFERING_CONTRACT, { narrow: plain(MAINTENANCE_OFFERING_CONTRACT) }),
  reads("admin announcements", "adminAnnouncement", ADMIN_ANNOUNCEMENT_CONTRACT, { narrow: withContext(ADMIN_ANNOUNCEMENT_CONTRACT) }),
  reads("offering users", "offeringUser", OFFERING_USER_CONTRACT, { visible: visibleOfferingUsers, narrow: withContext(OFFERING_USER_CONTRACT) }),
  reads("orders", "order", ORDER_CONTRACT, { visible: visibleOrders, narrow: withContext(ORDER_CONTRACT) }),
  ...[visibleResources, providerResources].map((visible, i) =>
    reads(i ? "provider resources" : "resources", "resource", RESOURCE_CONTRACT, {
      visible,
      narrow: (values, ctx, within = {}) => contractWhere<unknown, LookupEnv>(RESOURCE_CONTRACT, values, { db: ctx.db, now: ctx.now(), within }),
    }),
  ),
  reads("agent identities", "agentIdentity", AGENT_IDENTITY_CONTRACT, { visible: visibleAgentIdentities, narrow: plain(AGENT_IDENTITY_CONTRACT) }),
  reads("ssh keys", "sshKey", SSH_KEY_CONTRACT, { visible: visibleSshKeys, narrow: withContext(SSH_KEY_CONTRACT) }),
  reads("terms of service", "offeringTermsOfService", TERMS_CONTRACT, { visible: visibleTerms, narrow: plain(TERMS_CONTRACT) }),
  reads("consents", "userOfferingConsent", CONSENT_CONTRACT, { narrow: plain(CONSENT_CONTRACT) }),
  reads("component usages", "componentUsage", COMPONENT_USAGE_CONTRACT, { visible: visibleComponentUsages, narrow: withContext(COMPONENT_USAGE_CONTRACT) }),
  reads("component user usages", "componentUserUsage", COMPONENT_USER_USAGE_CONTRACT, {
    visible: visibleComponentUserUsages,
    narrow: withContext(COMPONENT_USER_USAGE_CONTRACT),
  }),
  reads("user limits", "componentUserUsageLimit", USER_LIMIT_CONTRACT, { narrow: plain(USER_LIMIT_CONTRACT) }),
];
