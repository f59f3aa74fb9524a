import { newTokenKey, tokenDigest } from "../../src/auth/secrets.ts";
import type { EventScopeType, Prisma } from "../../src/generated/prisma/client.ts";
import type { Db } from "../../src/platform/database/connect.ts";
import { toHex } from "../../src/platform/ids.ts";
import { parsePublicKey, sha512Fingerprint } from "../../src/ssh-keys/openssh.ts";
import type { TestApp } from "./app.ts";
import { ed25519Key } from "./ssh-test-keys.ts";
import type { World } from "./world.ts";

/**
 * Data built so that every REST list filter has something to split: beside the world's rows, each collection gets
 * rows that differ in what its filters read. "Vintage" rows were created and modified in 2020, every other row now,
 * so `CUTOFF` splits any date filter. Written straight to the database (no events but those built here).
 */

interface Ref {
  id: string;
  uuid: string;
}
type WithSlug = Ref & { slug: string };

export const CUTOFF = "2021-01-01T00:00:00Z";
const VINTAGE = { created: new Date("2020-06-01T00:00:00Z"), modified: new Date("2020-06-01T00:00:00Z") };

const ref = (row: { id: string }): Ref => ({ id: row.id, uuid: toHex(row.id) });
const withSlug = (row: { id: string; slug: string }): WithSlug => ({ ...ref(row), slug: row.slug });

export type SplitData = Awaited<ReturnType<typeof buildSplitData>>;

export async function buildSplitData(t: Pick<TestApp, "app" | "world" | "baseUrl">) {
  const db = t.app.deps.db;
  const { world } = t;
  const people = await buildPeople(db);
  const directory = await buildDirectory(db, world, people);
  const market = await buildMarket(db, world, people, directory);
  await buildUsage(db, world, people, market);
  const notices = await buildNotices(db, world, people, directory, market);
  const keys = await buildKeys(db, world);
  await buildEvents(db, world, people, directory, market);
  return {
    world,
    ...people,
    ...directory,
    ...market,
    ...notices,
    ...keys,
    /** The hyperlink form of a uuid filter's value: `<base>/api/<collection>/<uuid>/`. */
    url: (collection: string, target: { uuid: string }) => `${t.baseUrl}/api/${collection}/${target.uuid}/`,
  };
}

async function buildPeople(db: Db) {
  const user = (username: string, data: Omit<Prisma.UserCreateInput, "username"> = {}) =>
    db.user.create({ data: { username, email: `${username.replace("split.", "")}@split.example`, ...data } });
  const alice = await user("split.alice", { firstName: "Alice", lastName: "Archer" });
  const bob = await user("split.bob", { firstName: "Bob", lastName: "Baker", ...VINTAGE });
  await user("split.gone", { firstName: "Gone", isActive: false });
  const viewer = await user("split.viewer", { firstName: "Vera", lastName: "Viewer" });
  const token = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(token), userId: viewer.id } });
  return { alice: ref(alice), bob: ref(bob), viewer: { ...ref(viewer), token } };
}

type People = Awaited<ReturnType<typeof buildPeople>>;

/** A second provider (with a service provider) and a vintage consumer with a finished project; the viewer owns it. */
async function buildDirectory(db: Db, world: World, { viewer }: People) {
  const secondProvider = await db.customer.create({ data: { name: "Second Provider", abbreviation: "SEC" } });
  const serviceProvider2 = await db.serviceProvider.create({ data: { customerId: secondProvider.id } });
  const vintageLab = await db.customer.create({ data: { name: "Vintage Lab", abbreviation: "VL", ...VINTAGE } });
  const vintageProject = await db.project.create({
    data: { customerId: vintageLab.id, name: "Vintage project", description: "Archived climate runs", endDate: new Date("2020-12-31"), ...VINTAGE },
  });
  const grants: Array<[string, "CUSTOMER" | "PROJECT", string]> = [
    ["CUSTOMER.OWNER", "CUSTOMER", vintageLab.id],
    ["PROJECT.ADMIN", "PROJECT", world.project.id],
  ];
  for (const [role, scopeType, scopeId] of grants) await db.roleGrant.create({ data: { userId: viewer.id, role, scopeType, scopeId } });
  return {
    secondProvider: withSlug(secondProvider),
    serviceProvider2: ref(serviceProvider2),
    vintageLab: ref(vintageLab),
    vintageProject: withSlug(vintageProject),
  };
}

type Directory = Awaited<ReturnType<typeof buildDirectory>>;

/**
 * Offerings (the world's HPC; Object Storage: another provider's, Draft, limit-based, restricted to owners; a vintage
 * archived one), their terms, consents and offering users; three resources with their orders.
 */
async function buildMarket(db: Db, world: World, { alice, bob }: People, { secondProvider, vintageProject }: Directory) {
  const hpc = await db.offering.findUniqueOrThrow({ where: { id: world.offering.id } });
  const hpcComponent = (type: string) => db.offeringComponent.findUniqueOrThrow({ where: { offeringId_type: { offeringId: hpc.id, type } } });
  const [cpu, ram] = [await hpcComponent("cpu"), await hpcComponent("ram")];
  const storage = await db.offering.create({
    data: {
      customerId: secondProvider.id, name: "Object Storage", type: "Marketplace.Basic", state: "DRAFT", description: "Durable buckets",
      pluginOptions: {
        service_provider_can_create_offering_user: false, restricted_to_roles: ["CUSTOMER.OWNER"],
        enable_resource_access_subnets: true, heappe_url: "https://heappe.example.org",
      },
      components: { create: [{ type: "storage", name: "Storage", billingType: "LIMIT" }] },
    },
    include: { components: true },
  });
  const archived = await db.offering.create({
    data: {
      customerId: world.provider.id, name: "Vintage Cloud", type: "Marketplace.Script", state: "ARCHIVED", ...VINTAGE,
      components: { create: [{ type: "node", name: "Node", billingType: "FIXED" }] },
    },
    include: { components: true },
  });
  const plan = await db.offeringPlan.create({ data: { offeringId: hpc.id, name: "Gold" } });

  await db.offeringTermsOfService.create({ data: { offeringId: hpc.id, version: "1.0", isActive: true, requiresReconsent: true } });
  await db.offeringTermsOfService.create({ data: { offeringId: storage.id, version: "2.0" } });
  const staffId = world.users.staff.id;
  await db.userOfferingConsent.create({ data: { userId: alice.id, offeringId: hpc.id, version: "1.0" } });
  await db.userOfferingConsent.create({ data: { userId: staffId, offeringId: hpc.id, version: "1.0" } });
  await db.userOfferingConsent.create({ data: { userId: bob.id, offeringId: storage.id, version: "2.0", revocationDate: VINTAGE.modified } });

  const offeringUsers: Prisma.OfferingUserUncheckedCreateInput[] = [
    { offeringId: hpc.id, userId: alice.id, state: "OK", username: "alice01", isRestricted: true },
    { offeringId: hpc.id, userId: world.users.projectMember.id, state: "PENDING_ACCOUNT_LINKING" },
    { offeringId: hpc.id, userId: staffId, state: "CREATING" },
    { offeringId: storage.id, userId: bob.id, state: "CREATION_REQUESTED", ...VINTAGE },
  ];
  const [aliceAccount, , staffAccount] = await Promise.all(offeringUsers.map((data) => db.offeringUser.create({ data })));
  // Creating since 2020: stuck (the database keeps this column; nothing the application writes sets it).
  await db.$executeRaw`UPDATE offering_users SET state_changed_at = ${VINTAGE.modified} WHERE id = ${staffAccount.id}::uuid`;

  const resource = (data: Prisma.ResourceUncheckedCreateInput) => db.resource.create({ data });
  const compute = await resource({
    name: "alpha-compute", offeringId: hpc.id, projectId: world.project.id, state: "CREATING", planId: plan.id, backendId: "b-alpha",
    backendMetadata: { runtime_state: "ACTIVE", flavor_name: "M1.Large", instance_name: "vm1" },
    attributes: { partition: "gpu" }, endDate: new Date("2030-01-01"), restrictMemberAccess: true,
  });
  const bucket = await resource({
    name: "beta-storage", offeringId: storage.id, projectId: world.project.id, state: "OK", paused: true, downscaled: true,
    backendMetadata: { image_name: "Ubuntu-22" }, scopeId: compute.id,
  });
  const vintageRun = await resource({ name: "vintage-run", offeringId: archived.id, projectId: vintageProject.id, state: "TERMINATED", ...VINTAGE });

  const order = (data: Prisma.OrderUncheckedCreateInput) => db.order.create({ data });
  await order({ offeringId: hpc.id, projectId: world.project.id, resourceId: compute.id, state: "PENDING_CONSUMER" });
  await order({ offeringId: storage.id, projectId: world.project.id, resourceId: bucket.id, state: "PENDING_PROVIDER" });
  await order({ offeringId: archived.id, projectId: vintageProject.id, resourceId: vintageRun.id, type: "TERMINATE", state: "DONE", ...VINTAGE });

  return {
    hpc: withSlug(hpc),
    storage: withSlug(storage),
    archived: withSlug(archived),
    components: { cpu: ref(cpu), ram: ref(ram), storage: ref(storage.components[0]), node: ref(archived.components[0]) },
    plan: ref(plan),
    aliceAccount: ref(aliceAccount),
    resources: { compute: ref(compute), bucket: withSlug(bucket), vintageRun: ref(vintageRun) },
  };
}

type Market = Awaited<ReturnType<typeof buildMarket>>;

/** Usage reports in three billing periods (one recurring), their users' shares, and per-user limits. */
async function buildUsage(db: Db, world: World, { alice }: People, { resources, components, aliceAccount }: Market) {
  const reports: Array<[Ref, Ref, string, string, boolean, string]> = [
    [resources.compute, components.cpu, "2024-01-01", "2024-01-15", false, "alice01"],
    [resources.compute, components.ram, "2024-02-01", "2024-02-10", true, "member01"],
    [resources.vintageRun, components.node, "2023-03-01", "2023-03-05", false, "vintage01"],
  ];
  for (const [resource, component, billingPeriod, date, recurring, username] of reports) {
    const usage = await db.componentUsage.create({
      data: {
        resourceId: resource.id, componentId: component.id, billingPeriod: new Date(billingPeriod), date: new Date(date), recurring, usage: 10,
      },
    });
    const offeringUserId = username === "alice01" ? aliceAccount.id : null;
    await db.componentUserUsage.create({ data: { componentUsageId: usage.id, username, usage: 5, date: new Date(date), offeringUserId } });
  }
  const limits: Array<[Ref, Ref, string]> = [
    [resources.compute, components.cpu, alice.id],
    [resources.compute, components.ram, world.users.projectMember.id],
    [resources.bucket, components.storage, alice.id],
  ];
  for (const [resource, component, userId] of limits) {
    await db.componentUserUsageLimit.create({ data: { resourceId: resource.id, componentId: component.id, userId, limit: 100 } });
  }
}

/** Maintenance in four states and schedules (two providers), links to offerings, announcements, site agents. */
async function buildNotices(db: Db, world: World, people: People, { serviceProvider2 }: Directory, { hpc, storage }: Market) {
  const at = (text: string) => new Date(text);
  const maintenance = (data: Omit<Prisma.MaintenanceAnnouncementUncheckedCreateInput, "serviceProviderId"> & { serviceProviderId?: string }) =>
    db.maintenanceAnnouncement.create({ data: { serviceProviderId: world.serviceProvider.id, ...data } });
  const draft = await maintenance({
    name: "Draft work", state: "DRAFT", maintenanceType: 1, scheduledStart: at("2030-01-01T10:00:00Z"), scheduledEnd: at("2030-01-01T12:00:00Z"),
  });
  const scheduled = await maintenance({
    name: "Storage upgrade", state: "SCHEDULED", maintenanceType: 3, serviceProviderId: serviceProvider2.id,
    scheduledStart: at("2030-02-01T10:00:00Z"), scheduledEnd: at("2030-02-02T10:00:00Z"),
  });
  await maintenance({
    name: "Late network work", state: "IN_PROGRESS", maintenanceType: 2,
    scheduledStart: at("2024-05-01T10:00:00Z"), scheduledEnd: at("2024-05-01T12:00:00Z"), actualStart: at("2024-05-01T10:40:00Z"),
  });
  await maintenance({
    name: "Finished patching", state: "COMPLETED", maintenanceType: 4,
    scheduledStart: at("2024-01-10T10:00:00Z"), scheduledEnd: at("2024-01-10T12:00:00Z"),
    actualStart: at("2024-01-10T10:00:00Z"), actualEnd: at("2024-01-10T12:00:00Z"),
  });
  await db.maintenanceAnnouncementOffering.create({ data: { maintenanceId: draft.id, offeringId: hpc.id } });
  await db.maintenanceAnnouncementOffering.create({ data: { maintenanceId: scheduled.id, offeringId: storage.id } });

  const announcements: Prisma.AdminAnnouncementCreateInput[] = [
    { description: "Welcome", type: "INFORMATION", activeFrom: at("2020-01-01T00:00:00Z"), activeTo: at("2099-01-01T00:00:00Z") },
    { description: "Planned outage", type: "WARNING", activeFrom: at("2099-01-01T00:00:00Z"), activeTo: at("2099-02-01T00:00:00Z") },
  ];
  for (const data of announcements) await db.adminAnnouncement.create({ data });

  const agent = await db.agentIdentity.create({ data: { offeringId: hpc.id, name: "slurm-agent", version: "0.7.0", lastRestarted: new Date() } });
  await db.agentService.create({ data: { identityId: agent.id, name: "order_processing", mode: "order_process" } });
  await db.agentIdentity.create({
    data: { offeringId: storage.id, name: "storage-agent", version: "0.6.0", lastRestarted: VINTAGE.created, ...VINTAGE },
  });
  // Event subscriptions as rows only (their broker logins are the broker tests' business): Alice's order
  // subscription has queues for both offerings, Bob's offering_user subscription one for the HPC offering.
  const subscription = (userId: string, objectType: string) =>
    db.eventSubscription.create({ data: { userId, objectType, tokenDigest: "0".repeat(64) } });
  const aliceOrders = await subscription(people.alice.id, "order");
  const bobUsers = await subscription(people.bob.id, "offering_user");
  await db.eventSubscriptionQueue.createMany({
    data: [
      { subscriptionId: aliceOrders.id, offeringId: hpc.id, objectType: "order" },
      { subscriptionId: aliceOrders.id, offeringId: storage.id, objectType: "order" },
      { subscriptionId: bobUsers.id, offeringId: hpc.id, objectType: "offering_user" },
    ],
  });
  return { scheduledMaintenance: ref(scheduled), aliceOrders: ref(aliceOrders) };
}

/** Two keys of members of the world's project (an allocation of the second provider's Object Storage), one vintage. */
async function buildKeys(db: Db, world: World) {
  const key = async (userId: string, name: string, created: Date) => {
    const parsed = parsePublicKey(ed25519Key(name));
    if (!("key" in parsed)) throw new Error(parsed.problem);
    const { type, publicKey, fingerprintMd5, fingerprintSha256 } = parsed.key;
    return db.sshKey.create({ data: { userId, name, created, type, publicKey, fingerprintMd5, fingerprintSha256 } });
  };
  const laptop = await key(world.users.projectMember.id, "laptop", new Date());
  await key(world.users.projectAdmin.id, "desktop", VINTAGE.created);
  const { fingerprintMd5, fingerprintSha256 } = laptop;
  return { laptopKey: { ...ref(laptop), fingerprintMd5, fingerprintSha256, fingerprintSha512: sha512Fingerprint(laptop.publicKey) } };
}

/** A vintage permissions event about Alice and the vintage lab, and a recent order event made with a token. */
async function buildEvents(db: Db, world: World, { alice }: People, { vintageLab }: Directory, { resources }: Market) {
  const event = (eventType: string, message: string, context: Prisma.InputJsonObject, scopes: Array<[EventScopeType, string]>, created?: Date) =>
    db.event.create({
      data: {
        eventType, message, context, created,
        scopes: { createMany: { data: scopes.map(([scopeType, scopeId]) => ({ scopeType, scopeId })) } },
      },
    });
  const aboutAlice: Array<[EventScopeType, string]> = [["USER", alice.id], ["CUSTOMER", vintageLab.id]];
  await event("role_granted", "Alice was granted a role", { auth_method: "password" }, aboutAlice, VINTAGE.created);
  await event("marketplace_order_created", "An order was placed", { auth_method: "token", pat_uuid: "pat-1" }, [
    ["RESOURCE", resources.compute.id],
    ["PROJECT", world.project.id],
    ["CUSTOMER", world.consumer.id],
  ]);
}
