import { expect } from "vitest";
import { toHex } from "../../src/platform/ids.ts";
import type { TestApp } from "./app.ts";
import { ed25519Key } from "./ssh-test-keys.ts";

/**
 * `rows` of everything the main lists show, each row with related objects of its own (user, project, plan, reviewers,
 * services, …), so that a relation loaded per row shows as a dearer page.
 */
export async function seedEveryList(t: TestApp, rows: number) {
  const db = t.app.deps.db;
  const { world } = t;
  const components = await db.offeringComponent.findMany({ where: { offeringId: world.offering.id }, orderBy: { type: "asc" } });
  const plan = (i: number) => db.offeringPlan.create({ data: { offeringId: world.offering.id, name: `Plan ${i}`, unitPrice: i } });
  const activeTerms = await db.offeringTermsOfService.create({
    data: { offeringId: world.offering.id, version: "2", isActive: true, activatedAt: new Date(), termsOfService: "Be nice." },
  });

  for (let i = 0; i < rows; i++) {
    const consumer = await db.customer.create({ data: { name: `Consumer ${i}` } });
    const project = await db.project.create({ data: { customerId: consumer.id, name: `Project ${i}` } });
    const member = await db.user.create({ data: { username: `sql-member-${i}`, firstName: "Member", lastName: String(i), email: `m${i}@example.org` } });
    const reviewer = await db.user.create({ data: { username: `sql-reviewer-${i}` } });
    await db.roleGrant.create({ data: { userId: member.id, role: "PROJECT.MEMBER", scopeType: "PROJECT", scopeId: project.id } });

    const offeringUser = await db.offeringUser.create({
      data: { offeringId: world.offering.id, userId: member.id, state: "OK", username: `site_${i}`, backendMetadata: { n: i } },
    });
    if (i % 2 === 0) await db.userOfferingConsent.create({ data: { userId: member.id, offeringId: world.offering.id, version: i % 4 ? "2" : "1" } });

    const { id: planId } = await plan(i);
    const resource = await db.resource.create({
      data: { name: `resource-${i}`, state: "OK", offeringId: world.offering.id, projectId: project.id, planId, limits: { cpu: i } },
    });
    await db.order.create({
      data: {
        state: "DONE", offeringId: world.offering.id, projectId: project.id, planId, resourceId: resource.id, limits: { cpu: i },
        createdById: member.id, consumerReviewedById: reviewer.id, consumerReviewedAt: new Date(),
        providerReviewedById: world.users.providerOwner.id, providerReviewedAt: new Date(), completedAt: new Date(),
      },
    });
    const usage = await db.componentUsage.create({
      data: {
        resourceId: resource.id, componentId: components[i % components.length].id, usage: i + 0.5, date: new Date(),
        billingPeriod: new Date(Date.UTC(2025, i % 12, 1)), modifiedById: reviewer.id,
      },
    });
    await db.componentUserUsage.create({ data: { componentUsageId: usage.id, username: `site_${i}`, usage: i, offeringUserId: offeringUser.id, date: new Date() } });

    const offering = await db.offering.create({ data: { customerId: world.provider.id, name: `Offering ${i}`, type: "Marketplace.Slurm", state: "ACTIVE" } });
    const maintenance = await db.maintenanceAnnouncement.create({
      data: {
        name: `Maintenance ${i}`, serviceProviderId: world.serviceProvider.id, createdById: reviewer.id, state: "SCHEDULED",
        scheduledStart: new Date(Date.UTC(2030, 0, 1 + i)), scheduledEnd: new Date(Date.UTC(2030, 0, 2 + i)),
        affectedOfferings: { create: [{ offeringId: world.offering.id, impactLevel: 2 }, { offeringId: offering.id, impactLevel: 3 }] },
      },
    });
    await db.offeringTermsOfService.create({ data: { offeringId: offering.id, version: "1", isActive: true, activatedAt: new Date() } });
    await db.userOfferingConsent.create({ data: { userId: world.users.providerOwner.id, offeringId: offering.id, version: "1" } });
    await db.agentIdentity.create({
      data: {
        offeringId: offering.id, name: `agent-${i}`, version: "0.8.0", createdById: reviewer.id, dependencies: [{ package: "waldur-site-agent", version: "0.8.0" }],
        services: {
          create: ["order_process", "membership_sync"].map((mode) => ({
            name: `${mode}-${i}`, mode, statistics: { runs: i },
            processors: { create: [{ name: `Processor-${mode}-${i}`, backendType: "slurm" }, { name: `Reporter-${mode}-${i}`, backendType: "slurm" }] },
          })),
        },
      },
    });
    const key = await t.http("POST", "/api/keys/", { token: t.world.tokens.staff, body: { public_key: ed25519Key(`key-${i}`), name: `key-${i}`, user: toHex(member.id) } });
    expect(key.status).toBe(201);
    await db.event.create({
      data: {
        eventType: "bench_event", message: `Event ${i}`, context: { i },
        scopes: { create: [{ scopeType: "CUSTOMER", scopeId: world.provider.id }, { scopeType: "MAINTENANCE", scopeId: maintenance.id }] },
      },
    });
  }
  expect(activeTerms.isActive).toBe(true);
}
