import { Prisma } from "../../src/generated/prisma/client.ts";
import type { Db } from "../../src/platform/database/connect.ts";
import { applyMigrations } from "../../src/platform/database/migrations.ts";
import { freshDatabase } from "./database.ts";

const MIGRATIONS_DIR = new URL("../../prisma/migrations", import.meta.url).pathname;

/** The rows the read compiler's tests read: two offerings of a provider, their users, an event, resources with usages. */
export async function seed(db: Db) {
  const provider = await db.customer.create({ data: { name: "Provider", abbreviation: "PR" } });
  const consumer = await db.customer.create({ data: { name: "Consumer 100%_\\", email: "c@example.org" } });
  await db.serviceProvider.create({ data: { customerId: provider.id, description: "sp" } });
  const project = await db.project.create({ data: { customerId: consumer.id, name: "Project", endDate: new Date("2027-03-04T00:00:00Z") } });
  await db.project.create({ data: { customerId: consumer.id, name: "Open-ended" } });
  const managed = await db.offering.create({
    data: { customerId: provider.id, name: "Managed", type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: { service_provider_can_create_offering_user: true, limit: 3 } },
  });
  const other = await db.offering.create({ data: { customerId: provider.id, name: "Other", type: "Marketplace.Basic", pluginOptions: { service_provider_can_create_offering_user: false } } });
  const gold = await db.offeringPlan.create({ data: { offeringId: managed.id, name: "Gold", unitPrice: new Prisma.Decimal("12.3456789012") } });
  await db.offeringPlan.create({ data: { offeringId: managed.id, name: "Free" } });
  await db.offeringTermsOfService.create({ data: { offeringId: managed.id, version: "1", isActive: true, activatedAt: new Date("2026-01-02T03:04:05.678Z") } });
  await db.offeringTermsOfService.create({ data: { offeringId: managed.id, version: "0" } });
  const names = ["alice", "Bob", "carol_x", "dave%", "erin"];
  const users = [];
  for (const [i, username] of names.entries()) {
    users.push(
      await db.user.create({
        data: { username, firstName: username.toUpperCase(), lastName: `L${i}`, passwordHash: i % 2 ? null : "hash", tokenLifetime: i === 1 ? 3600 : null },
      }),
    );
  }
  await db.roleGrant.create({ data: { userId: users[0].id, role: "PROJECT.MEMBER", scopeType: "PROJECT", scopeId: project.id } });
  await db.roleGrant.create({ data: { userId: users[1].id, role: "PROJECT.ADMIN", scopeType: "PROJECT", scopeId: project.id, isActive: false } });
  const states = ["CREATION_REQUESTED", "OK", "OK", "ERROR_CREATING", "DELETING"] as const;
  const offeringUsers = [];
  for (const [i, user] of users.entries()) {
    offeringUsers.push(
      await db.offeringUser.create({
        data: {
          offeringId: i < 4 ? managed.id : other.id,
          userId: user.id,
          state: states[i],
          username: i === 2 ? null : `site_${user.username}`,
          isRestricted: i === 3,
          backendMetadata: i === 1 ? { home: "/home/b", uid: 1001 } : {},
          created: new Date(Date.UTC(2026, 0, 1 + i, 12, 0, 0, 123)),
        },
      }),
    );
  }
  const event = await db.event.create({
    data: { eventType: "marketplace_offering_user_updated", message: "m", context: { a: [1, "x"] }, change: Prisma.DbNull, scopes: { create: [{ scopeType: "OFFERING", scopeId: managed.id }, { scopeType: "CUSTOMER", scopeId: provider.id }] } },
  });
  await db.event.create({ data: { eventType: "other", message: "n", change: { state: "OK" } } });
  await db.offeringUserTally.create({ data: { offeringId: managed.id, state: "OK", delta: 2 } });
  const identity = await db.agentIdentity.create({ data: { offeringId: managed.id, name: "agent", dependencies: [{ name: "x" }] } });
  await db.agentConsumerQueue.create({ data: { identityId: identity.id, userId: users[0].id, tokenDigest: "d".repeat(64), rmqUsername: "rmq1", objectTypes: ["order", "resource"] } });
  const everything = await db.agentIdentity.create({ data: { offeringId: other.id, name: "agent of every type" } });
  await db.agentConsumerQueue.create({ data: { identityId: everything.id, userId: users[1].id, tokenDigest: "e".repeat(64), rmqUsername: "rmq2", objectTypes: [] } });
  const component = await db.offeringComponent.create({ data: { offeringId: managed.id, type: "cpu", name: "CPU", billingType: "USAGE" } });
  const resource = await db.resource.create({ data: { projectId: project.id, offeringId: managed.id, name: "r1", endDate: new Date("2027-01-31T00:00:00Z") } });
  await db.resource.create({ data: { projectId: project.id, offeringId: other.id, planId: gold.id, name: "r2" } });
  // Written by SQL's clock, to the microsecond, as a database default would: finer than a JavaScript date.
  await db.$executeRaw`UPDATE offering_users SET created = '2026-01-03T12:00:00.123456Z' WHERE id = ${offeringUsers[2].id}::uuid`;
  await db.componentUsage.create({
    data: { resourceId: resource.id, componentId: component.id, usage: new Prisma.Decimal("10.25"), date: new Date("2026-05-06T07:08:09.010Z"), billingPeriod: new Date("2026-05-01T00:00:00Z") },
  });
  return { provider, consumer, project, managed, other, users, offeringUsers, event, resource };
}

export type ReadData = Awaited<ReturnType<typeof seed>>;

/** A fresh migrated database (PGlite, or PostgreSQL with TEST_DATABASE_URL) holding `seed`'s rows. */
export async function readsDatabase() {
  const database = await freshDatabase();
  await applyMigrations(database.sql, MIGRATIONS_DIR);
  return { database, db: database.prisma, ids: await seed(database.prisma) };
}
