import type { Db } from "../../src/platform/database/connect.ts";
import { totalsSql } from "../../src/platform/database/tallies.ts";
import { TALLY_TABLES } from "../../src/modules.ts";
import { makeOffering, makeResource, orderIn } from "./order-fixtures.ts";
import { seedMaintenance } from "./maintenance-fixtures.ts";
import type { TestApp } from "./app.ts";
import type { IdSource, Random } from "./fuzz-values.ts";

/** Real objects for the fuzzer to aim at, and a fingerprint of the whole database to prove rejected requests wrote nothing. */

/** The table behind each REST collection. */
export const COLLECTION_TABLES: Record<string, string> = {
  users: "users",
  customers: "customers",
  projects: "projects",
  "marketplace-service-providers": "service_providers",
  "marketplace-provider-offerings": "offerings",
  events: "events",
  "marketplace-offering-users": "offering_users",
  "marketplace-offering-terms-of-service": "offering_terms_of_service",
  "marketplace-user-offering-consents": "user_offering_consents",
  "marketplace-orders": "orders",
  "marketplace-provider-resources": "resources",
  "marketplace-component-usages": "component_usages",
  "marketplace-component-user-usages": "component_user_usages",
  "component-user-usage-limits": "component_user_usage_limits",
  keys: "ssh_keys",
  "maintenance-announcements": "maintenance_announcements",
  "maintenance-announcement-offerings": "maintenance_announcement_offerings",
  "public-maintenance-announcements": "maintenance_announcements",
  "admin-announcements": "admin_announcements",
  "marketplace-site-agent-identities": "agent_identities",
  "marketplace-site-agent-services": "agent_services",
  "marketplace-site-agent-processors": "agent_processors",
};

/** The GraphQL type of the objects under `/api/<collection>/`: the typename in the global ids mutations take (`input: { id }`). */
export const COLLECTION_TYPENAMES: Record<string, string> = {
  users: "User",
  "marketplace-provider-offerings": "Offering",
  "marketplace-offering-users": "OfferingUser",
  "marketplace-offering-terms-of-service": "OfferingTermsOfService",
  "marketplace-user-offering-consents": "UserOfferingConsent",
  "marketplace-orders": "Order",
  "marketplace-provider-resources": "Resource",
  "component-user-usage-limits": "ComponentUserUsageLimit",
  keys: "SshKey",
  "maintenance-announcements": "MaintenanceAnnouncement",
  "maintenance-announcement-offerings": "MaintenanceAnnouncementOffering",
  "admin-announcements": "AdminAnnouncement",
  "marketplace-site-agent-identities": "AgentIdentity",
};

/** `/api/<collection>/…` → collection. */
export const collectionOf = (path: string) => /^\/api\/([^/]+)\//.exec(path)?.[1];

let counter = 0;

/** One object of every kind a REST path names, in the states the actions start from. */
export async function seedTargets(t: TestApp) {
  counter += 1;
  const db = t.app.deps.db;
  const w = t.world;
  for (const state of ["CREATION_REQUESTED", "CREATING", "OK", "DELETION_REQUESTED", "PENDING_ACCOUNT_LINKING"] as const) await w.offeringUser(state);
  const basic = await makeOffering(db, w, "Marketplace.Basic");
  for (const state of ["PENDING_CONSUMER", "PENDING_PROVIDER", "EXECUTING", "DONE"] as const) await orderIn(db, w, state);
  await orderIn(db, w, "PENDING_CONSUMER", { offeringId: basic.id });
  const resource = await makeResource(db, w, "OK");
  const cpu = await db.offeringComponent.findFirstOrThrow({ where: { offeringId: w.offering.id, type: "cpu" } });
  const usage = await db.componentUsage.create({
    data: { resourceId: resource.id, componentId: cpu.id, usage: 5, date: new Date(), billingPeriod: new Date(Date.UTC(2030, counter % 12, 1)) },
  });
  await db.componentUserUsage.create({ data: { componentUsageId: usage.id, username: `fuzz${counter}`, usage: 1, date: new Date() } });
  await db.componentUserUsageLimit.create({ data: { resourceId: resource.id, componentId: cpu.id, userId: w.users.projectMember.id, limit: 10 } });
  for (const state of ["DRAFT", "SCHEDULED", "IN_PROGRESS"] as const) {
    const m = await seedMaintenance(t, state);
    await db.maintenanceAnnouncementOffering.create({ data: { maintenanceId: m.id, offeringId: w.offering.id, impactLevel: 2 } });
  }
  await db.adminAnnouncement.create({ data: { description: `Fuzz ${counter}`, activeFrom: new Date(), activeTo: new Date(Date.now() + 86_400_000) } });
  await db.offeringTermsOfService.create({ data: { offeringId: basic.id, termsOfService: "Terms", version: "1", isActive: true } });
  await db.userOfferingConsent.create({ data: { userId: w.users.projectMember.id, offeringId: basic.id, version: "1" } });
  await db.sshKey.create({
    data: { userId: w.users.staff.id, name: `key${counter}`, publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA==", type: "ssh-ed25519", fingerprintMd5: `md5-${counter}`, fingerprintSha256: `SHA256:${counter}` },
  });
  const identity = await db.agentIdentity.create({ data: { offeringId: w.offering.id, name: `agent${counter}` } });
  const service = await db.agentService.create({ data: { identityId: identity.id, name: "order_process", mode: "order_process" } });
  await db.agentProcessor.create({ data: { serviceId: service.id, name: "OfferingOrderProcessor", backendType: "slurm" } });
}

/** Ids of existing rows per collection, read again before each batch (the fuzzer creates and deletes objects). */
export class RealIds implements IdSource {
  private byTable = new Map<string, string[]>();

  async refresh(db: Db) {
    for (const table of new Set(Object.values(COLLECTION_TABLES))) {
      const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(`SELECT id::text AS id FROM "${table}" ORDER BY id LIMIT 40`);
      this.byTable.set(table, rows.map((row) => row.id));
    }
  }

  /** A table with no rows left (deleted by the fuzzer), so the targets need seeding again. */
  get exhausted() {
    return [...this.byTable.values()].some((ids) => ids.length === 0);
  }

  realId(random: Random, collection?: string): string | undefined {
    const table = collection ? COLLECTION_TABLES[collection] : random.pick([...this.byTable.keys()]);
    const ids = table ? this.byTable.get(table) : undefined;
    return ids?.length ? random.pick(ids) : undefined;
  }
}

/** Bookkeeping any authenticated request may write (a token's recorded use), left out of the fingerprint. */
const BOOKKEEPING_COLUMNS: Record<string, string[]> = { auth_tokens: ["last_used"] };

const rowText = (table: string) => {
  const skipped = BOOKKEEPING_COLUMNS[table];
  return skipped ? `(to_jsonb(t) - ARRAY[${skipped.map((column) => `'${column}'`).join(", ")}])::text` : "t::text";
};

/** Tally tables are folded in the background (rows rewritten, totals kept): their totals are compared, not their rows. */
const CONTENT_OF: Record<string, string> = Object.fromEntries(TALLY_TABLES.map((tally) => [tally.table, `(${totalsSql(tally)})`]));

/** Row count and an md5 of every row's text per table: equal fingerprints mean nothing was written. */
export async function databaseFingerprint(db: Db): Promise<Record<string, string>> {
  const tables = await db.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY 1`,
  );
  const sql = tables
    .map(({ name }) => `SELECT '${name}' AS name, count(*) || ':' || md5(coalesce(string_agg(${rowText(name)}, ',' ORDER BY ${rowText(name)}), '')) AS print FROM ${CONTENT_OF[name] ?? `"${name}"`} t`)
    .join(" UNION ALL ");
  const rows = await db.$queryRawUnsafe<Array<{ name: string; print: string }>>(sql);
  return Object.fromEntries(rows.map((row) => [row.name, row.print]));
}

export const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
