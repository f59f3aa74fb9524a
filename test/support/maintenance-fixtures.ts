import type { MaintenanceState, Prisma } from "../../src/generated/prisma/client.ts";
import { toHex } from "../../src/platform/ids.ts";
import type { TestApp } from "./app.ts";

/** Test data for the maintenance tests (not a test file itself). */

export const START = "2030-01-01T10:00:00Z";
export const END = "2030-01-01T12:00:00Z";

export const serviceProviderUrl = (t: TestApp, uuid = t.world.serviceProvider.uuid) => `${t.baseUrl}/api/marketplace-service-providers/${uuid}/`;
export const offeringUrl = (t: TestApp, uuid = t.world.offering.uuid) => `${t.baseUrl}/api/marketplace-provider-offerings/${uuid}/`;
export const maintenanceUrl = (t: TestApp, uuid: string) => `${t.baseUrl}/api/maintenance-announcements/${uuid}/`;

let counter = 0;

/** An announcement of the world's service provider written straight to the database. */
export async function seedMaintenance(
  t: TestApp,
  state: MaintenanceState = "DRAFT",
  extra: Partial<Prisma.MaintenanceAnnouncementUncheckedCreateInput> = {},
) {
  counter += 1;
  const row = await t.app.deps.db.maintenanceAnnouncement.create({
    data: {
      name: `Maintenance ${counter}`,
      message: `Message ${counter}`,
      scheduledStart: new Date(START),
      scheduledEnd: new Date(END),
      serviceProviderId: t.world.serviceProvider.id,
      state,
      ...extra,
    },
  });
  return { id: row.id, uuid: toHex(row.id), name: row.name };
}

/** Another provider organisation with its own service provider and offering. */
export async function otherProvider(t: TestApp) {
  counter += 1;
  const db = t.app.deps.db;
  const customer = await db.customer.create({ data: { name: `Other provider ${counter}` } });
  const serviceProvider = await db.serviceProvider.create({ data: { customerId: customer.id } });
  const offering = await db.offering.create({ data: { customerId: customer.id, name: `Other offering ${counter}`, type: "Marketplace.Basic", state: "ACTIVE" } });
  return {
    customer: { id: customer.id, uuid: toHex(customer.id) },
    serviceProvider: { id: serviceProvider.id, uuid: toHex(serviceProvider.id) },
    offering: { id: offering.id, uuid: toHex(offering.id) },
  };
}

export const createBody = (t: TestApp, extra: Record<string, unknown> = {}) => ({
  name: "Storage upgrade",
  message: "The storage will be upgraded",
  scheduled_start: START,
  scheduled_end: END,
  service_provider: serviceProviderUrl(t),
  ...extra,
});
