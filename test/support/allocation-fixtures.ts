import { expect } from "vitest";
import type { OfferingUserState } from "../../src/generated/prisma/client.ts";
import type { TestApp } from "./app.ts";
import { makeOffering } from "./order-fixtures.ts";
import { OFFERING_TYPES } from "../../src/orders/transitions.ts";
import { parseUuid, toHex } from "../../src/platform/ids.ts";

/** Projects, members, orders and offering-user probes for the allocation tests, over a running test app. */
export function allocationFixtures(app: () => TestApp) {
  type Ref = { id: string; uuid: string };
  const ref = (id: string): Ref => ({ id, uuid: toHex(id) });
  const db = () => app().app.deps.db;
  let counter = 0;

  /** An offering that allows offering users, with or without automatic deletion. */
  const offering = (autoDeletion?: boolean) =>
    makeOffering(db(), app().world, OFFERING_TYPES.SLURM, {
      service_provider_can_create_offering_user: true,
      ...(autoDeletion === undefined ? {} : { offering_user_auto_deletion: autoDeletion }),
    });

  /** A project nobody holds a role in, under a customer of its own unless given one. */
  async function project(customerId?: string): Promise<Ref & { customerId: string }> {
    counter += 1;
    const customer = customerId ?? (await db().customer.create({ data: { name: `Consumer ${counter}` } })).id;
    const created = await db().project.create({ data: { customerId: customer, name: `Project ${counter}` } });
    return { ...ref(created.id), customerId: customer };
  }

  async function user(): Promise<Ref> {
    counter += 1;
    return ref((await db().user.create({ data: { username: `alloc${counter}`, firstName: "A", lastName: String(counter) } })).id);
  }

  const roleCall = (action: "add_user" | "delete_user", base: string, scopeUuid: string, member: Ref, role: string) =>
    app().http("POST", `${base}/${scopeUuid}/${action}/`, { token: app().world.tokens.staff, body: { user: member.uuid, role } });

  async function addMember(p: Ref, member: Ref, role = "PROJECT.MEMBER") {
    expect((await roleCall("add_user", "/api/projects", p.uuid, member, role)).status).toBe(201);
  }
  async function removeMember(p: Ref, member: Ref, role = "PROJECT.MEMBER") {
    expect((await roleCall("delete_user", "/api/projects", p.uuid, member, role)).status).toBe(200);
  }

  const orderAction = async (uuid: string, action: string) =>
    expect((await app().http("POST", `/api/marketplace-orders/${uuid}/${action}/`, { token: app().world.tokens.providerOwner, body: {} })).status).toBe(200);

  async function placeOrder(body: Record<string, unknown>) {
    const res = await app().http("POST", "/api/marketplace-orders/", { token: app().world.tokens.staff, body });
    expect(res.status).toBe(201);
    return res.body as { uuid: string; state: string; resource_uuid: string };
  }

  /** A Create order through REST; with `done` the provider completes it and the resource is OK. */
  async function allocate(o: Ref, p: Ref, done = true): Promise<Ref> {
    const order = await placeOrder({
      offering: `${app().baseUrl}/api/marketplace-provider-offerings/${o.uuid}/`,
      project: `${app().baseUrl}/api/projects/${p.uuid}/`,
      attributes: { name: `alloc-${++counter}` },
    });
    if (order.state === "pending-provider") await orderAction(order.uuid, "approve_by_provider");
    if (done) await orderAction(order.uuid, "set_state_done");
    return ref(parseUuid(order.resource_uuid)!);
  }

  /** A Terminate order through REST, completed by the provider. */
  async function terminate(o: Ref, p: Ref, resource: Ref) {
    const order = await placeOrder({
      type: "Terminate",
      offering: `${app().baseUrl}/api/marketplace-provider-offerings/${o.uuid}/`,
      project: `${app().baseUrl}/api/projects/${p.uuid}/`,
      resource: resource.uuid,
    });
    if (order.state === "pending-provider") await orderAction(order.uuid, "approve_by_provider");
    await orderAction(order.uuid, "set_state_done");
    expect((await db().resource.findUniqueOrThrow({ where: { id: resource.id } })).state).toBe("TERMINATED");
  }

  const offeringUser = (o: Ref, member: Ref) =>
    db().offeringUser.findUnique({ where: { offeringId_userId: { offeringId: o.id, userId: member.id } } });
  const stateOf = async (o: Ref, member: Ref) => (await offeringUser(o, member))?.state ?? null;
  const eventsOf = (offeringUserId: string) =>
    db().event.findMany({ where: { scopes: { some: { scopeType: "OFFERING_USER", scopeId: offeringUserId } } }, orderBy: { id: "asc" } });
  const setState = (o: Ref, member: Ref, state: OfferingUserState, extra: { username?: string; comment?: string } = {}) =>
    db().offeringUser.update({
      where: { offeringId_userId: { offeringId: o.id, userId: member.id } },
      data: { state, username: extra.username, serviceProviderComment: extra.comment ?? "", serviceProviderCommentUrl: extra.comment ? "https://x.example/c" : "" },
    });

  return { ref, db, roleCall, offering, project, user, addMember, removeMember, orderAction, placeOrder, allocate, terminate, offeringUser, stateOf, eventsOf, setState };
}
