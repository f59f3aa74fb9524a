import type { App } from "../app.ts";
import { hashPassword, tokenDigest, verifyPassword } from "../auth/secrets.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import type { Db } from "../platform/database/connect.ts";
import { seedActivity } from "./activity.ts";
import type { DemoAccounts } from "./accounts.ts";
import { count, findMany } from "../platform/reads/sql/find.ts";

export { issueToken } from "./tokens.ts";

export const DEMO_PASSWORD = "demo-password";

/** Demo accounts and the offering users they own, in several states. */
const CONSUMERS: Array<{ username: string; first: string; last: string; role: string; state: OfferingUserState; username_at_site?: string; comment?: string }> = [
  { username: "alice", first: "Alice", last: "Archer", role: "PROJECT.ADMIN", state: "CREATION_REQUESTED" },
  { username: "bob", first: "Bob", last: "Baker", role: "PROJECT.MEMBER", state: "CREATION_REQUESTED" },
  { username: "carol", first: "Carol", last: "Chen", role: "PROJECT.MEMBER", state: "CREATION_REQUESTED" },
  { username: "dave", first: "Dave", last: "Diaz", role: "PROJECT.MEMBER", state: "CREATING" },
  { username: "erin", first: "Erin", last: "Evans", role: "PROJECT.MANAGER", state: "OK", username_at_site: "erin01" },
  {
    username: "frank", first: "Frank", last: "Fischer", role: "PROJECT.MEMBER", state: "PENDING_ACCOUNT_LINKING",
    comment: "<p>Link your existing cluster account at the portal.</p>",
  },
  { username: "grace", first: "Grace", last: "Green", role: "PROJECT.MEMBER", state: "ERROR_CREATING" },
];

/** Every username seedDemo creates. */
export const DEMO_USERNAMES = ["staff", "support", "provider-owner", "offering-manager", ...CONSUMERS.map((c) => c.username)];

/** Active demo accounts whose password is still DEMO_PASSWORD: anyone who read the README can sign in as them. */
export async function demoPasswordAccounts(db: Db): Promise<string[]> {
  const users = await findMany(db, "user", {
    where: { username: { in: DEMO_USERNAMES }, isActive: true, passwordHash: { not: null } },
    select: { username: true, passwordHash: true },
    orderBy: { username: "asc" },
  });
  const open = await Promise.all(users.map(async (u) => ((await verifyPassword(DEMO_PASSWORD, u.passwordHash)) ? u.username : null)));
  return open.filter((username) => username !== null);
}

/** The start-up refusal: in production, the one-line reason not to serve while demo accounts keep the demo password. */
export async function productionRefusal(db: Db, production: boolean): Promise<string | null> {
  if (!production) return null;
  const open = await demoPasswordAccounts(db);
  if (!open.length) return null;
  return `Refusing to start: NODE_ENV=production and demo accounts still have the demo password (${open.join(", ")}); deactivate them or change their passwords.`;
}

/** True when the database has no users yet (a fresh data directory). */
export const isEmpty = async (db: Db) => (await count(db, "user")) === 0;

/** Empties every table but the migrations' bookkeeping. */
export async function wipe(db: Db) {
  const tables = await db.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'`,
  );
  if (tables.length) await db.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => t.name).join(", ")} RESTART IDENTITY CASCADE`);
}

/**
 * The demo: accounts, organisations, the offering and its users written directly, then everything else (terms,
 * orders, resources, usage, keys, maintenance, announcements, a site agent) through the app's own REST API, as
 * the users who would do it, so audit events and state machines are real.
 */
export async function seedDemo(app: App): Promise<void> {
  const accounts = await seedAccounts(app.deps.db);
  // Each seeding request would log a line ahead of the start-up banner: only their warnings and errors are kept.
  const { logger } = app;
  const level = logger.level;
  if (logger.levelVal < logger.levels.values.warn) logger.level = "warn";
  try {
    await seedActivity(app, accounts);
  } finally {
    logger.level = level;
  }
}

async function seedAccounts(db: Db): Promise<DemoAccounts> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.$transaction(async (tx) => {
    const userIds: Record<string, string> = {};
    const offeringUserIds: Record<string, string> = {};
    const user = async (username: string, first = "", last = "", extra: { isStaff?: boolean; isSupport?: boolean } = {}) => {
      const created = await tx.user.create({ data: { username, firstName: first, lastName: last, email: `${username}@example.org`, passwordHash, ...extra } });
      userIds[username] = created.id;
      return created;
    };
    const grant = (userId: string, role: string, scopeType: "CUSTOMER" | "PROJECT" | "OFFERING", scopeId: string) =>
      tx.roleGrant.create({ data: { userId, role, scopeType, scopeId } });

    await user("staff", "Staff", "User", { isStaff: true });
    await user("support", "Support", "User", { isSupport: true });
    const provider = await tx.customer.create({ data: { name: "Northern HPC Centre", abbreviation: "NHPC", email: "hpc@example.org" } });
    const owner = await user("provider-owner", "Paula", "Owner");
    await grant(owner.id, "CUSTOMER.OWNER", "CUSTOMER", provider.id);
    const serviceProvider = await tx.serviceProvider.create({ data: { customerId: provider.id, description: "Batch computing for research" } });
    const offering = await tx.offering.create({
      data: {
        customerId: provider.id,
        name: "Slurm Cluster",
        type: "Marketplace.Slurm",
        state: "ACTIVE",
        // The site agent generates usernames only under the service_provider policy.
        pluginOptions: { service_provider_can_create_offering_user: true, offering_user_auto_deletion: true, username_generation_policy: "service_provider" },
        components: {
          create: [
            { type: "cpu", name: "CPU", billingType: "USAGE", measuredUnit: "core-hours" },
            { type: "ram", name: "RAM", billingType: "USAGE", measuredUnit: "GB-hours" },
          ],
        },
        plans: { create: [{ name: "Default", unitPrice: "0" }] },
      },
      include: { plans: { select: { id: true } } },
    });
    const manager = await user("offering-manager", "Oscar", "Manager");
    await grant(manager.id, "OFFERING.MANAGER", "OFFERING", offering.id);

    const consumer = await tx.customer.create({ data: { name: "Climate Research Lab", abbreviation: "CRL" } });
    const project = await tx.project.create({ data: { customerId: consumer.id, name: "Ocean Models" } });
    for (const c of CONSUMERS) {
      const member = await user(c.username, c.first, c.last);
      await grant(member.id, c.role, "PROJECT", project.id);
      const offeringUser = await tx.offeringUser.create({
        data: {
          offeringId: offering.id,
          userId: member.id,
          state: c.state,
          username: c.username_at_site ?? null,
          serviceProviderComment: c.comment ?? "",
        },
      });
      offeringUserIds[c.username] = offeringUser.id;
    }
    const [plan] = offering.plans;
    return { serviceProviderId: serviceProvider.id, offeringId: offering.id, planId: plan.id, projectId: project.id, userIds, offeringUserIds };
  });
}

/** ADMIN_TOKEN: a staff user `admin` holding exactly that key. Idempotent. */
export async function ensureAdmin(db: Db, key: string) {
  const admin = await db.user.upsert({
    where: { username: "admin" },
    create: { username: "admin", firstName: "Admin", isStaff: true },
    update: { isStaff: true, isActive: true },
  });
  await db.authToken.upsert({
    where: { keyDigest: tokenDigest(key) },
    create: { keyDigest: tokenDigest(key), userId: admin.id },
    update: { userId: admin.id },
  });
}
