import type { App } from "../app.ts";
import type { Db } from "../platform/database/connect.ts";
import { type DemoCaller, demoCaller } from "./api-client.ts";
import type { DemoAccounts } from "./accounts.ts";
import { findFirstOrThrow, findMany } from "../platform/reads/sql/find.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const ORDERS = "/api/marketplace-orders";
const RESOURCES = "/api/marketplace-provider-resources";
const USAGES = "/api/marketplace-component-usages";
const MAINTENANCE = "/api/maintenance-announcements";

/** Public halves of throw-away ed25519 keys (their private halves were never kept). */
const SSH_KEYS: Record<string, string> = {
  alice: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAY79A6JyieVma3f44thxc9XCtj9/INHZNoMp7pmBIw+ alice@ocean-models",
  bob: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEoSdr3IEOzRw5iuXNQHstj9ypuxJ6riogFw3MGHqhMO bob@ocean-models",
};

interface Callers {
  staff: DemoCaller;
  owner: DemoCaller;
  manager: DemoCaller;
  alice: DemoCaller;
  bob: DemoCaller;
  erin: DemoCaller;
}

/** Everything after the accounts, in the order a site would live it; each step is a REST call of the user who would make it. */
export async function seedActivity(app: App, demo: DemoAccounts): Promise<void> {
  const callers: Callers = {
    staff: await demoCaller(app, "staff"),
    owner: await demoCaller(app, "provider-owner"),
    manager: await demoCaller(app, "offering-manager"),
    alice: await demoCaller(app, "alice"),
    bob: await demoCaller(app, "bob"),
    erin: await demoCaller(app, "erin"),
  };
  const now = app.deps.now().getTime();
  const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();

  await termsAndConsents(callers, demo);
  await sshKeys(callers);
  await orders(app.deps.db, callers, demo);
  await maintenance(app.deps.db, callers, demo, at);
  await callers.staff.post("/api/admin-announcements/", {
    description: "Welcome to the Marketplace Gateway demo: every collection holds a few records to explore.",
    type: "information",
    active_from: at(-DAY),
    active_to: at(30 * DAY),
  });
  await siteAgent(app.deps.db, callers, demo, at);
  for (const caller of Object.values(callers)) await caller.logout();
}

async function termsAndConsents({ owner, alice, erin }: Callers, demo: DemoAccounts) {
  await owner.post("/api/marketplace-offering-terms-of-service/", {
    offering: demo.offeringId,
    terms_of_service: "<p>Allocations are for research use only. Report publications that used the cluster.</p>",
    terms_of_service_link: "https://hpc.example.org/terms",
    version: "1.0",
    is_active: true,
  });
  for (const user of [alice, erin]) await user.post("/api/marketplace-user-offering-consents/", { offering: demo.offeringId });
}

async function sshKeys({ alice, bob }: Callers) {
  for (const user of [alice, bob]) await user.post("/api/keys/", { public_key: SSH_KEYS[user.username], name: `${user.username}-laptop` });
}

/** Orders in several states: done (an OK resource with usage and limits), waiting for the provider, erred, and waiting for the consumer. */
async function orders(db: Db, { owner, manager, alice, bob }: Callers, demo: DemoAccounts) {
  const place = async (caller: DemoCaller, name: string, limits: Record<string, number>) => {
    await caller.post(`${ORDERS}/`, {
      offering: demo.offeringId,
      project: demo.projectId,
      plan: demo.planId,
      attributes: { name },
      limits,
      accepting_terms_of_service: true,
      request_comment: `${name} for the Ocean Models project`,
    });
    const order = await findFirstOrThrow(db, "order", { where: { resource: { name } }, select: { id: true, resourceId: true } });
    if (!order.resourceId) throw new Error(`Demo seed: the order for ${name} created no resource`);
    return { id: order.id, resourceId: order.resourceId };
  };

  const production = await place(alice, "Ocean Models production", { cpu: 50_000, ram: 200_000 });
  await manager.post(`${ORDERS}/${production.id}/approve_by_provider/`);
  await owner.post(`${ORDERS}/${production.id}/set_backend_id/`, { backend_id: "slurm-order-1001" });
  await owner.post(`${ORDERS}/${production.id}/set_state_done/`);
  await reportResource(db, owner, demo, production.resourceId);

  await place(alice, "Ocean Models archive", { cpu: 5_000, ram: 20_000 });

  const trial = await place(alice, "Ocean Models GPU trial", { cpu: 1_000, ram: 4_000 });
  await owner.post(`${ORDERS}/${trial.id}/set_state_executing/`);
  await owner.post(`${ORDERS}/${trial.id}/set_state_erred/`, {
    error_message: "Slurm account creation failed: QOS 'gpu' does not exist",
    error_traceback: "sacctmgr: error: Invalid QOS name: gpu",
  });

  await place(bob, "Ocean Models sandbox", { cpu: 500, ram: 2_000 });
}

/** What the site agent reports for a provisioned resource: backend id, limits, a sync, this month's usage, user shares. */
async function reportResource(db: Db, owner: DemoCaller, demo: DemoAccounts, resourceId: string) {
  await owner.post(`${RESOURCES}/${resourceId}/set_backend_id/`, { backend_id: "ocean_models" });
  await owner.post(`${RESOURCES}/${resourceId}/set_limits/`, { limits: { cpu: 50_000, ram: 200_000 } });
  await owner.post(`${RESOURCES}/${resourceId}/refresh_last_sync/`);
  await owner.post(`${USAGES}/set_usage/`, {
    resource: resourceId,
    usages: [
      { type: "cpu", amount: "12840.50", description: "Slurm sreport, month to date" },
      { type: "ram", amount: "51200", description: "Slurm sreport, month to date" },
    ],
  });
  const usages = await findMany(db, "componentUsage", { where: { resourceId }, select: { id: true, component: { select: { type: true } } } });
  const erin = demo.offeringUserIds.erin;
  for (const { id, component } of usages) {
    await owner.post(`${USAGES}/${id}/set_user_usage/`, { username: "erin01", usage: component.type === "cpu" ? "8200.25" : "30000", user: erin });
  }
  await owner.post("/api/component-user-usage-limits/", { resource: resourceId, component_type: "cpu", user: demo.userIds.alice, limit: "5000" });
}

/** One announcement per live state, each naming the offering: Draft, Scheduled, and In progress (also public). */
async function maintenance(db: Db, { owner }: Callers, demo: DemoAccounts, at: (offsetMs: number) => string) {
  const ANNOUNCEMENTS = [
    { name: "Login node OS upgrade", type: 4, start: 14 * DAY, hours: 4, actions: [], impact: 2 },
    { name: "Scratch filesystem firmware update", type: 1, start: 3 * DAY, hours: 6, actions: ["schedule"], impact: 3 },
    { name: "Emergency network switch replacement", type: 2, start: -HOUR, hours: 3, actions: ["schedule", "start_maintenance"], impact: 4 },
  ];
  for (const a of ANNOUNCEMENTS) {
    await owner.post(`${MAINTENANCE}/`, {
      name: a.name,
      message: `${a.name} on the Slurm cluster.`,
      maintenance_type: a.type,
      scheduled_start: at(a.start),
      scheduled_end: at(a.start + a.hours * HOUR),
      service_provider: demo.serviceProviderId,
    });
    const { id } = await findFirstOrThrow(db, "maintenanceAnnouncement", { where: { name: a.name }, select: { id: true } });
    await owner.post("/api/maintenance-announcement-offerings/", {
      maintenance: id,
      offering: demo.offeringId,
      impact_level: a.impact,
      impact_description: "Jobs cannot start while the work is in progress.",
    });
    for (const action of a.actions) await owner.post(`${MAINTENANCE}/${id}/${action}/`);
  }
}

async function siteAgent(db: Db, { manager }: Callers, demo: DemoAccounts, at: (offsetMs: number) => string) {
  const name = "slurm-site-agent";
  await manager.post("/api/marketplace-site-agent-identities/", {
    offering: demo.offeringId,
    name,
    version: "0.7.0",
    dependencies: [{ package: "waldur-api-client", version: "7.8.0" }],
    config_file_path: "/etc/waldur/waldur-site-agent-config.yaml",
    last_restarted: at(-2 * HOUR),
  });
  const identity = await findFirstOrThrow(db, "agentIdentity", { where: { offeringId: demo.offeringId, name }, select: { id: true } });
  await manager.post(`/api/marketplace-site-agent-identities/${identity.id}/register_service/`, { name: "order_processing", mode: "order_process" });
  const service = await findFirstOrThrow(db, "agentService", { where: { identityId: identity.id, name: "order_processing" }, select: { id: true } });
  await manager.post(`/api/marketplace-site-agent-services/${service.id}/register_processor/`, {
    name: "OfferingOrderProcessor",
    backend_type: "slurm",
    backend_version: "23.11.4",
  });
}
