import { hashPassword, newTokenKey, tokenDigest, verifyPassword } from "../auth/secrets.ts";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import type { Db } from "../platform/database.ts";

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
  const users = await db.user.findMany({
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
export const isEmpty = async (db: Db) => (await db.user.count()) === 0;

export async function wipe(db: Db) {
  await db.$executeRawUnsafe(
    `TRUNCATE event_scopes, events, offering_users, role_grants, offering_plans, offering_components, offerings,
     service_providers, projects, customers, auth_tokens, users RESTART IDENTITY CASCADE`,
  );
}

export async function seedDemo(db: Db): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.$transaction(async (tx) => {
    const user = (username: string, first = "", last = "", extra: { isStaff?: boolean; isSupport?: boolean } = {}) =>
      tx.user.create({ data: { username, firstName: first, lastName: last, email: `${username}@example.org`, passwordHash, ...extra } });
    const grant = (userId: string, role: string, scopeType: "CUSTOMER" | "PROJECT" | "OFFERING", scopeId: string) =>
      tx.roleGrant.create({ data: { userId, role, scopeType, scopeId } });

    await user("staff", "Staff", "User", { isStaff: true });
    await user("support", "Support", "User", { isSupport: true });
    const provider = await tx.customer.create({ data: { name: "Northern HPC Centre", abbreviation: "NHPC", email: "hpc@example.org" } });
    const owner = await user("provider-owner", "Paula", "Owner");
    await grant(owner.id, "CUSTOMER.OWNER", "CUSTOMER", provider.id);
    await tx.serviceProvider.create({ data: { customerId: provider.id, description: "Batch computing for research" } });
    const offering = await tx.offering.create({
      data: {
        customerId: provider.id,
        name: "Slurm Cluster",
        type: "Marketplace.Slurm",
        state: "ACTIVE",
        pluginOptions: { service_provider_can_create_offering_user: true, offering_user_auto_deletion: true },
        components: {
          create: [
            { type: "cpu", name: "CPU", billingType: "USAGE", measuredUnit: "core-hours" },
            { type: "ram", name: "RAM", billingType: "USAGE", measuredUnit: "GB-hours" },
          ],
        },
        plans: { create: [{ name: "Default", unitPrice: "0" }] },
      },
    });
    const manager = await user("offering-manager", "Oscar", "Manager");
    await grant(manager.id, "OFFERING.MANAGER", "OFFERING", offering.id);

    const consumer = await tx.customer.create({ data: { name: "Climate Research Lab", abbreviation: "CRL" } });
    const project = await tx.project.create({ data: { customerId: consumer.id, name: "Ocean Models" } });
    for (const c of CONSUMERS) {
      const member = await user(c.username, c.first, c.last);
      await grant(member.id, c.role, "PROJECT", project.id);
      await tx.offeringUser.create({
        data: {
          offeringId: offering.id,
          userId: member.id,
          state: c.state,
          username: c.username_at_site ?? null,
          serviceProviderComment: c.comment ?? "",
        },
      });
    }
  });
}

/** A fresh token for a user (only the digest is stored, so each call issues a new key). */
export async function issueToken(db: Db, username: string): Promise<string | null> {
  const user = await db.user.findUnique({ where: { username }, select: { id: true } });
  if (!user) return null;
  const key = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(key), userId: user.id } });
  return key;
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
