import { randomUUID } from "node:crypto";
import { newTokenKey, tokenDigest } from "../src/auth/secrets.ts";
import type { OfferingUserState } from "../src/generated/prisma/client.ts";
import type { Db } from "../src/platform/database/connect.ts";

/** Offering users seeded for the benchmark: enough that a page of 10 is full and the count is real. */
export const SEEDED_OFFERING_USERS = 200;

/** States the seeded offering users start in (round-robin), so the page shows a realistic mix. */
const STATES: OfferingUserState[] = ["CREATION_REQUESTED", "CREATING", "OK", "DELETION_REQUESTED", "DELETING", "ERROR_DELETING"];

/**
 * One provider offering, one consumer project, a staff user with a token and `count` consumer users, each with an
 * offering user. Bulk inserts keep seeding to well under a second on both databases. Returns the staff token.
 */
export async function seedBenchData(db: Db, count = SEEDED_OFFERING_USERS): Promise<string> {
  const staff = await db.user.create({ data: { username: "bench-staff", firstName: "Bench", lastName: "Staff", isStaff: true } });
  const token = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(token), userId: staff.id } });

  const provider = await db.customer.create({ data: { name: "Bench Provider", abbreviation: "BP" } });
  await db.serviceProvider.create({ data: { customerId: provider.id } });
  const offering = await db.offering.create({
    data: {
      customerId: provider.id,
      name: "Bench Cluster",
      type: "Marketplace.Slurm",
      state: "ACTIVE",
      pluginOptions: { service_provider_can_create_offering_user: true },
    },
  });
  const consumer = await db.customer.create({ data: { name: "Bench Consumer" } });
  const project = await db.project.create({ data: { customerId: consumer.id, name: "Bench Project" } });

  const members = Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(4, "0");
    return { id: randomUUID(), username: `member${n}`, firstName: "Member", lastName: n, email: `member${n}@example.org` };
  });
  await db.user.createMany({ data: members });
  await db.roleGrant.createMany({
    data: members.map((m) => ({ userId: m.id, role: "PROJECT.MEMBER", scopeType: "PROJECT" as const, scopeId: project.id })),
  });
  await db.offeringUser.createMany({
    data: members.map((m, i) => ({
      offeringId: offering.id,
      userId: m.id,
      state: STATES[i % STATES.length],
      username: `site_${m.username}`,
      serviceProviderComment: i % 7 === 0 ? "Waiting for the site administrator." : "",
      backendMetadata: { home: `/home/${m.username}`, shell: "/bin/bash" },
    })),
  });
  return token;
}

/**
 * `count` more users who manage the bench provider's customer, each with a token: distinct viewers. With
 * `distinctRoles`, each is also a member of a project of their own (a role that shows them nothing more), so no two
 * hold the same set of roles and none shares a visibility decision. Usernames carry `run`, so every fan-out run can
 * add its own.
 */
export async function seedBenchViewers(db: Db, count: number, run: string, distinctRoles: boolean): Promise<string[]> {
  const provider = await db.customer.findFirstOrThrow({ where: { name: "Bench Provider" } });
  const viewers = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), username: `viewer-${run}-${i + 1}`, firstName: "Viewer", lastName: String(i + 1) }));
  const tokens = viewers.map(() => newTokenKey());
  await db.user.createMany({ data: viewers });
  await db.authToken.createMany({ data: viewers.map((v, i) => ({ keyDigest: tokenDigest(tokens[i]), userId: v.id })) });
  await db.roleGrant.createMany({
    data: viewers.map((v) => ({ userId: v.id, role: "CUSTOMER.MANAGER", scopeType: "CUSTOMER" as const, scopeId: provider.id })),
  });
  if (distinctRoles) {
    const projects = viewers.map((v) => ({ id: randomUUID(), customerId: provider.id, name: `Project of ${v.username}` }));
    await db.project.createMany({ data: projects });
    await db.roleGrant.createMany({
      data: viewers.map((v, i) => ({ userId: v.id, role: "PROJECT.MEMBER", scopeType: "PROJECT" as const, scopeId: projects[i].id })),
    });
  }
  return tokens;
}
