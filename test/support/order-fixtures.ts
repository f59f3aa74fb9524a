import type { OrderState, OrderType, Prisma, ResourceState } from "../../src/generated/prisma/client.ts";
import type { Db } from "../../src/platform/database/connect.ts";
import { newTokenKey, tokenDigest } from "../../src/auth/secrets.ts";
import { toHex } from "../../src/platform/ids.ts";
import type { World } from "./world.ts";

/** Test data for orders and resources, written straight to the database. */

/** Where a Create order's resource stands while the order is in each state. */
const CREATE_RESOURCE_STATE: Record<OrderState, ResourceState> = {
  PENDING_CONSUMER: "CREATING",
  PENDING_PROVIDER: "CREATING",
  PENDING_PROJECT: "CREATING",
  PENDING_START_DATE: "CREATING",
  EXECUTING: "CREATING",
  DONE: "OK",
  ERRED: "ERRED",
  CANCELED: "TERMINATED",
  REJECTED: "TERMINATED",
};

let counter = 0;

export async function makeOffering(db: Db, world: World, type: string, pluginOptions: Record<string, unknown> = {}) {
  counter += 1;
  const offering = await db.offering.create({
    data: {
      customerId: world.provider.id,
      name: `${type} ${counter}`,
      type,
      state: "ACTIVE",
      pluginOptions: pluginOptions as Prisma.InputJsonObject,
      components: { create: [{ type: "cpu", name: "CPU", billingType: "USAGE" }] },
    },
  });
  return { id: offering.id, uuid: toHex(offering.id) };
}

export async function makeResource(
  db: Db,
  world: World,
  state: ResourceState,
  extra: { offeringId?: string; projectId?: string; name?: string; backendId?: string } = {},
) {
  counter += 1;
  const resource = await db.resource.create({
    data: {
      name: extra.name ?? `resource-${counter}`,
      backendId: extra.backendId ?? "",
      state,
      offeringId: extra.offeringId ?? world.offering.id,
      projectId: extra.projectId ?? world.project.id,
    },
  });
  return { id: resource.id, uuid: toHex(resource.id) };
}

export async function orderIn(
  db: Db,
  world: World,
  state: OrderState,
  options: {
    type?: OrderType;
    offeringId?: string;
    projectId?: string;
    planId?: string;
    createdById?: string;
    resourceState?: ResourceState;
    resourceName?: string;
  } = {},
) {
  const type = options.type ?? "CREATE";
  const resourceState = options.resourceState ?? (type === "CREATE" ? CREATE_RESOURCE_STATE[state] : "OK");
  const projectId = options.projectId ?? world.project.id;
  const resource = await makeResource(db, world, resourceState, { offeringId: options.offeringId, projectId, name: options.resourceName });
  const order = await db.order.create({
    data: {
      type,
      state,
      offeringId: options.offeringId ?? world.offering.id,
      projectId,
      planId: options.planId ?? null,
      resourceId: resource.id,
      createdById: options.createdById ?? world.users.projectMember.id,
      limits: { cpu: 10 },
    },
  });
  return { id: order.id, uuid: toHex(order.id), resource };
}

/** A user holding the given roles, with a token. */
export async function userWithRoles(db: Db, roles: Array<[string, "CUSTOMER" | "PROJECT" | "OFFERING", string]>) {
  counter += 1;
  const user = await db.user.create({ data: { username: `user-${counter}` } });
  const token = newTokenKey();
  await db.authToken.create({ data: { keyDigest: tokenDigest(token), userId: user.id } });
  for (const [role, scopeType, scopeId] of roles) await db.roleGrant.create({ data: { userId: user.id, role, scopeType, scopeId } });
  return { id: user.id, username: user.username, token };
}
