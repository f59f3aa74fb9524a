import { describe, expect, it } from "vitest";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { useSubscriptionApp } from "../../test/support/subscription-app.ts";
import { primeFeed, sleep } from "../../test/support/ws.ts";
import { contextFor } from "../context.ts";
import { transact } from "../platform/database/transaction.ts";
import { reconcileResourceAccess } from "./allocations.ts";
import { makeOffering, userWithRoles } from "../../test/support/order-fixtures.ts";
import { allocationFixtures } from "../../test/support/allocation-fixtures.ts";
import { OFFERING_TYPES } from "../orders/transitions.ts";
import { parseUuid, toHex } from "../platform/ids.ts";

const { t, clients } = useSubscriptionApp();

const { ref, db, roleCall, offering, project, user, addMember, removeMember, orderAction, placeOrder, allocate, terminate, offeringUser, stateOf, eventsOf, setState } =
  allocationFixtures(() => t);

describe("access granted: an offering user is requested", () => {
  it("resource first, then a member is added → Requested, with a created event", async () => {
    const [o, p, member] = [await offering(), await project(), await user()];
    await allocate(o, p);
    expect(await stateOf(o, member)).toBeNull();
    await addMember(p, member);
    const ou = (await offeringUser(o, member))!;
    expect(ou).toMatchObject({ state: "CREATION_REQUESTED", username: null });
    const events = await eventsOf(ou.id);
    expect(events.map((e) => e.eventType)).toEqual(["marketplace_offering_user_created"]);
    const listed = await t.http("GET", `/api/marketplace-offering-users/?offering_uuid=${o.uuid}`, { token: t.world.tokens.providerOwner });
    expect(listed.body.map((row: { user_uuid: string; state: string }) => [row.user_uuid, row.state])).toEqual([[member.uuid, "Requested"]]);
  });

  it("members first, then a Create order → Requested for each member as soon as the resource exists", async () => {
    const [o, p, admin, member, outsider] = [await offering(), await project(), await user(), await user(), await user()];
    await addMember(p, admin, "PROJECT.ADMIN");
    await addMember(p, member);
    expect(await db().offeringUser.count({ where: { offeringId: o.id } })).toBe(0);
    await allocate(o, p, false);
    expect(await stateOf(o, admin)).toBe("CREATION_REQUESTED");
    expect(await stateOf(o, member)).toBe("CREATION_REQUESTED");
    expect(await stateOf(o, outsider)).toBeNull();
  });

  it("owners of the project's customer are connected too; a second connection changes nothing", async () => {
    const [o, p, owner] = [await offering(true), await project(), await user()];
    await allocate(o, p);
    expect((await roleCall("add_user", "/api/customers", toHex(p.customerId), owner, "CUSTOMER.OWNER")).status).toBe(201);
    const ou = (await offeringUser(o, owner))!;
    expect(ou.state).toBe("CREATION_REQUESTED");
    await addMember(p, owner);
    await removeMember(p, owner);
    expect(await stateOf(o, owner)).toBe("CREATION_REQUESTED");
    expect(await eventsOf(ou.id)).toHaveLength(1);
    expect((await roleCall("delete_user", "/api/customers", toHex(p.customerId), owner, "CUSTOMER.OWNER")).status).toBe(200);
    expect(await stateOf(o, owner)).toBe("DELETED");
  });

  it("an offering that does not allow offering users gets none", async () => {
    const o = await makeOffering(db(), t.world, OFFERING_TYPES.SLURM, {});
    const [p, member] = [await project(), await user()];
    await allocate(o, p);
    await addMember(p, member);
    expect(await stateOf(o, member)).toBeNull();
  });

  it("members added while resources are created: each offering user is requested exactly once", async () => {
    const [o, p] = [await offering(), await project()];
    const members = [await user(), await user(), await user(), await user()];
    await Promise.all([...members.map((member) => addMember(p, member)), allocate(o, p, false), allocate(o, p, false)]);
    for (const member of members) {
      expect(await stateOf(o, member)).toBe("CREATION_REQUESTED");
      expect(await eventsOf((await offeringUser(o, member))!.id)).toHaveLength(1);
    }
  });
});

// Needs two connections: on the embedded database transactions run one after another, so there is no race.
describe.runIf(process.env.TEST_DATABASE_URL)("concurrent transactions on PostgreSQL", () => {
  it("a grant and a resource committed concurrently cannot both miss each other", async () => {
    const [o, p, member] = [await offering(), await project(), await user()];
    const ctx = contextFor(t.app.deps, null, undefined, { url: t.baseUrl });
    let grantReconciled!: () => void;
    const reconciled = new Promise<void>((resolve) => (grantReconciled = resolve));
    const granting = transact(ctx, async (tx, outbox) => {
      await tx.roleGrant.create({ data: { userId: member.id, role: "PROJECT.MEMBER", scopeType: "PROJECT", scopeId: p.id } });
      await reconcileResourceAccess(ctx, tx, outbox, { projectId: p.id, offeringId: o.id });
      grantReconciled();
      await sleep(300); // the resource's transaction reconciles meanwhile
    });
    await reconciled;
    await transact(ctx, async (tx, outbox) => {
      const resource = await tx.resource.create({ data: { offeringId: o.id, projectId: p.id, state: "OK" } });
      await reconcileResourceAccess(ctx, tx, outbox, resource);
    });
    await granting;
    expect(await stateOf(o, member)).toBe("CREATION_REQUESTED");
  });
});

describe("access lost: deletion is requested when the offering opts in", () => {
  it("removing a member: OK → Requested deletion, Requested → Deleted", async () => {
    const [o, p, provisioned, requested] = [await offering(true), await project(), await user(), await user()];
    await allocate(o, p);
    await addMember(p, provisioned);
    await addMember(p, requested);
    await setState(o, provisioned, "OK", { username: "prov" });
    await removeMember(p, provisioned);
    await removeMember(p, requested);
    expect(await stateOf(o, provisioned)).toBe("DELETION_REQUESTED");
    expect(await stateOf(o, requested)).toBe("DELETED");
    const [event] = (await eventsOf((await offeringUser(o, provisioned))!.id)).slice(-1);
    expect(event).toMatchObject({ eventType: "marketplace_offering_user_updated" });
    expect(event.context).toMatchObject({ operation: "access_lost", old_state: "OK", new_state: "Requested deletion" });
  });

  for (const autoDeletion of [false, undefined]) {
    it(`offering_user_auto_deletion ${autoDeletion === false ? "false" : "absent"}: nothing changes`, async () => {
      const [o, p, member] = [await offering(autoDeletion), await project(), await user()];
      const resource = await allocate(o, p);
      await addMember(p, member);
      await setState(o, member, "OK", { username: "m" });
      await removeMember(p, member);
      expect(await stateOf(o, member)).toBe("OK");
      await addMember(p, member);
      await terminate(o, p, resource);
      expect(await stateOf(o, member)).toBe("OK");
      expect(await eventsOf((await offeringUser(o, member))!.id)).toHaveLength(1);
    });
  }

  it("every state before deletion goes to Requested deletion; later states are left alone", async () => {
    const o = await offering(true);
    const p = await project();
    await allocate(o, p);
    const expected: Array<[OfferingUserState, OfferingUserState]> = [
      ["CREATING", "DELETION_REQUESTED"],
      ["PENDING_ACCOUNT_LINKING", "DELETION_REQUESTED"],
      ["PENDING_ADDITIONAL_VALIDATION", "DELETION_REQUESTED"],
      ["ERROR_CREATING", "DELETION_REQUESTED"],
      ["ERROR_DELETING", "ERROR_DELETING"],
      ["DELETING", "DELETING"],
    ];
    for (const [from, to] of expected) {
      const member = await user();
      await addMember(p, member);
      await setState(o, member, from);
      await removeMember(p, member);
      expect([from, await stateOf(o, member)]).toEqual([from, to]);
    }
  });

  it("terminating the last resource requests deletion; another non-terminated resource keeps access", async () => {
    const o = await offering(true);
    const [first, second] = [await project(), await project()];
    const member = await user();
    const inFirst = [await allocate(o, first), await allocate(o, first)];
    const inSecond = await allocate(o, second);
    await addMember(first, member);
    await addMember(second, member);
    await setState(o, member, "OK", { username: "m" });
    for (const resource of inFirst) {
      await terminate(o, first, resource);
      expect(await stateOf(o, member)).toBe("OK");
    }
    await terminate(o, second, inSecond);
    expect(await stateOf(o, member)).toBe("DELETION_REQUESTED");
  });

  it("a Create order rejected by the provider terminates its resource and with it the access", async () => {
    const [o, p] = [await offering(true), await project()];
    const member = await userWithRoles(db(), [["PROJECT.MEMBER", "PROJECT", p.id]]);
    const res = await t.http("POST", "/api/marketplace-orders/", {
      token: member.token,
      body: { offering: `${t.baseUrl}/api/marketplace-provider-offerings/${o.uuid}/`, project: `${t.baseUrl}/api/projects/${p.uuid}/` },
    });
    expect(res.body.state).toBe("pending-consumer");
    expect(await stateOf(o, ref(member.id))).toBeNull();
    expect((await t.http("POST", `/api/marketplace-orders/${res.body.uuid}/approve_by_consumer/`, { token: t.world.tokens.staff, body: {} })).status).toBe(200);
    expect(await stateOf(o, ref(member.id))).toBe("CREATION_REQUESTED");
    expect((await t.http("POST", `/api/marketplace-orders/${res.body.uuid}/reject_by_provider/`, { token: t.world.tokens.staff, body: {} })).status).toBe(200);
    expect(await stateOf(o, ref(member.id))).toBe("DELETED");
  });
});

describe("access regained", () => {
  for (const from of ["DELETION_REQUESTED", "DELETING"] as const) {
    it(`${from} → OK with both comments cleared`, async () => {
      const [o, p, member] = [await offering(true), await project(), await user()];
      await allocate(o, p);
      await addMember(p, member);
      await removeMember(p, member);
      await setState(o, member, from, { username: "kept", comment: "being removed" });
      await addMember(p, member);
      expect(await offeringUser(o, member)).toMatchObject({
        state: "OK", username: "kept", serviceProviderComment: "", serviceProviderCommentUrl: "",
      });
      const [event] = (await eventsOf((await offeringUser(o, member))!.id)).slice(-1);
      expect(event.context).toMatchObject({ operation: "restore", new_state: "OK" });
    });
  }

  it("Deleted → Requested: the account is created again, under a username the site assigns anew", async () => {
    const [o, p, member] = [await offering(true), await project(), await user()];
    await allocate(o, p);
    await addMember(p, member);
    await removeMember(p, member);
    await setState(o, member, "DELETED", { username: "gone" });
    await addMember(p, member);
    expect(await offeringUser(o, member)).toMatchObject({ state: "CREATION_REQUESTED", username: null });
    const [event] = (await eventsOf((await offeringUser(o, member))!.id)).slice(-1);
    expect(event.context).toMatchObject({ operation: "recreate", old_state: "Deleted", new_state: "Requested", old_username: "gone" });
  });
});

describe("events and subscribers", () => {
  it("one event per state change, none for reconciliations that change nothing", async () => {
    const [o, p, member] = [await offering(true), await project(), await user()];
    await allocate(o, p);
    await addMember(p, member); // created in Requested
    await addMember(p, member, "PROJECT.ADMIN"); // no change
    await removeMember(p, member, "PROJECT.ADMIN"); // still a member: no change
    await removeMember(p, member); // Requested → Deleted
    await addMember(p, member); // Deleted → Requested
    await setState(o, member, "OK", { username: "m" });
    await removeMember(p, member); // OK → Requested deletion
    await addMember(p, member); // Requested deletion → OK
    const events = await eventsOf((await offeringUser(o, member))!.id);
    expect(events.map((e) => [e.eventType, (e.context as Record<string, unknown>).operation])).toEqual([
      ["marketplace_offering_user_created", "access_granted"],
      ["marketplace_offering_user_updated", "access_lost_unprovisioned"],
      ["marketplace_offering_user_updated", "recreate"],
      ["marketplace_offering_user_updated", "access_lost"],
      ["marketplace_offering_user_updated", "restore"],
    ]);
  });

  it("a provider's subscription hears every change after it commits", async () => {
    const [o, p, member] = [await offering(true), await project(), await user()];
    await allocate(o, p);
    const probe = await db().offeringUser.create({ data: { offeringId: o.id, userId: (await user()).id, state: "OK" } });
    const feed = clients.subscribe<{ offeringUserChanged: { state: string; previousState: string | null; event: { eventType: string; context: Record<string, unknown> } } }>(
      clients.open(t.world.tokens.providerOwner),
      `subscription($offeringUuid: ID) { offeringUserChanged(offeringUuid: $offeringUuid) { state previousState event { eventType context } } }`,
      { offeringUuid: o.uuid },
    );
    await primeFeed(feed, () =>
      t.http("PATCH", `/api/marketplace-offering-users/${toHex(probe.id)}/update_comments/`, {
        token: t.world.tokens.staff,
        body: { service_provider_comment: `probe ${Date.now()}` },
      }),
    );
    const heard = async () => (await feed.nextData()).offeringUserChanged;
    await addMember(p, member);
    expect(await heard()).toMatchObject({ state: "CREATION_REQUESTED", previousState: null, event: { eventType: "marketplace_offering_user_created" } });
    await removeMember(p, member);
    expect(await heard()).toMatchObject({ state: "DELETED", previousState: "CREATION_REQUESTED", event: { context: { operation: "access_lost_unprovisioned" } } });
    await addMember(p, member);
    expect(await heard()).toMatchObject({ state: "CREATION_REQUESTED", previousState: "DELETED", event: { context: { operation: "recreate" } } });
    feed.stop();
  });
});
