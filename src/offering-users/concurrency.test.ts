import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { stateFromLabel } from "./states.ts";
import { OFFERING_USER_TRANSITIONS, type OfferingUserOperation } from "./transitions.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Outcome {
  via: "REST" | "GraphQL";
  operation: OfferingUserOperation;
  ok: boolean;
  /** REST status, or the GraphQL error code. */
  detail: string | number;
}

async function overRest(uuid: string, operation: OfferingUserOperation): Promise<Outcome> {
  const res = await t.http("POST", `/api/marketplace-offering-users/${uuid}/${operation}/`, { token: t.world.tokens.providerOwner });
  if (res.status === 400) expect(res.body.detail).toMatch(/^Cannot transition to .+ from current state: \d+\. Valid states for operation: /);
  return { via: "REST", operation, ok: res.status === 200, detail: res.status };
}

async function overGraphql(uuid: string, operation: OfferingUserOperation): Promise<Outcome> {
  const name = OFFERING_USER_TRANSITIONS[operation].mutation;
  const result = await t.gql(
    `mutation($id: ID!) { ${name}(input: { id: $id }) { ... on OfferingUser { uuid } ... on Error { code } } }`,
    { id: globalId("OfferingUser", uuid) },
    t.world.tokens.providerManager,
  );
  const code = (result.errors?.[0]?.extensions?.code ?? result.data?.[name]?.code) as string | undefined;
  return { via: "GraphQL", operation, ok: !result.errors && result.data?.[name]?.uuid === uuid, detail: code ?? "ok" };
}

/** Fires all calls at once, alternating REST and GraphQL. */
const fireTogether = (uuid: string, operations: OfferingUserOperation[]) =>
  Promise.all(operations.map((op, i) => (i % 2 === 0 ? overRest(uuid, op) : overGraphql(uuid, op))));

const eventsOf = (id: string) =>
  t.app.deps.db.event.findMany({
    where: { scopes: { some: { scopeType: "OFFERING_USER", scopeId: id } } },
    orderBy: { id: "asc" },
  });

const rejected = (o: Outcome) => (o.via === "REST" ? o.detail === 400 : o.detail === "INVALID_TRANSITION");

describe("concurrent conflicting transitions on one offering user", () => {
  it("every successful call is one state change and one event; every other call is an invalid transition", async () => {
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const cycle: OfferingUserOperation[] = ["begin_creating", "set_error_creating", "set_ok"];
    const operations = Array.from({ length: 51 }, (_, i) => cycle[i % cycle.length]);

    const outcomes = await fireTogether(ou.uuid, operations);
    const succeeded = outcomes.filter((o) => o.ok);
    const failed = outcomes.filter((o) => !o.ok);
    expect(failed.filter((o) => !rejected(o))).toEqual([]);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);

    const events = await eventsOf(ou.id);
    expect(events).toHaveLength(succeeded.length);
    expect(events.map((e) => (e.context as { operation: string }).operation).sort()).toEqual(
      succeeded.map((o) => o.operation).sort(),
    );
    // Every path through these three operations from Requested ends in OK, which none of them leaves.
    const final = await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } });
    expect(final.state).toBe("OK");
    const last = events.at(-1)!.context as { new_state: string; operation: string };
    expect(last.new_state).toBe("OK");
  });

  it("the events replay the record's history: each starts from the state the previous one left", async () => {
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    // Mostly operations that bounce between Creating and Error creating, so that many of them succeed.
    const bouncing: OfferingUserOperation[] = ["begin_creating", "set_error_creating"];
    const operations = [...Array.from({ length: 48 }, (_, i) => bouncing[i % 2]), "set_ok" as const, "set_ok" as const];

    const outcomes = await fireTogether(ou.uuid, operations);
    const events = await eventsOf(ou.id);
    expect(events).toHaveLength(outcomes.filter((o) => o.ok).length);
    let state = "Requested";
    for (const event of events) {
      const context = event.context as { old_state: string; new_state: string };
      expect({ id: event.id, from: context.old_state }).toEqual({ id: event.id, from: state });
      expect(event.message).toContain(`from ${state} to ${context.new_state}`);
      state = context.new_state;
    }
    const final = await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } });
    expect(stateFromLabel(state)).toBe(final.state);
  });

  it("many concurrent begin_creating from Requested: exactly one succeeds", async () => {
    const ou = await t.world.offeringUser("CREATION_REQUESTED");
    const outcomes = await fireTogether(ou.uuid, Array.from({ length: 40 }, () => "begin_creating" as const));

    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok && rejected(o))).toHaveLength(39);
    const events = await eventsOf(ou.id);
    expect(events).toHaveLength(1);
    expect(events[0].context).toMatchObject({ old_state: "Requested", new_state: "Creating", operation: "begin_creating" });
    expect((await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } })).state).toBe("CREATING");
  });

  it("a deletion racing transitions: the record is gone, and each transition ran before it or failed cleanly", async () => {
    for (let round = 0; round < 3; round++) {
      const ou = await t.world.offeringUser("CREATION_REQUESTED");
      const bouncing: OfferingUserOperation[] = ["begin_creating", "set_error_creating"];
      const before = fireTogether(ou.uuid, Array.from({ length: 16 }, (_, i) => bouncing[i % 2]));
      const deletion = t.http("DELETE", `/api/marketplace-offering-users/${ou.uuid}/`, { token: t.world.tokens.providerOwner });
      const after = fireTogether(ou.uuid, Array.from({ length: 16 }, (_, i) => bouncing[i % 2]));
      const [deleted, outcomes] = await Promise.all([deletion, Promise.all([before, after]).then((o) => o.flat())]);

      expect(deleted.status).toBe(204);
      const unexpected = outcomes.filter((o) => !o.ok && !rejected(o) && o.detail !== 404 && o.detail !== "NOT_FOUND");
      expect(unexpected).toEqual([]);
      const events = await eventsOf(ou.id);
      expect(events.at(-1)!.eventType).toBe("marketplace_offering_user_deleted");
      // A transition that committed just before the deletion may still answer 404 when it rereads the record.
      const committed = events.length - 1;
      const notFound = outcomes.filter((o) => o.detail === 404 || o.detail === "NOT_FOUND").length;
      expect(committed).toBeGreaterThanOrEqual(outcomes.filter((o) => o.ok).length);
      expect(committed).toBeLessThanOrEqual(outcomes.filter((o) => o.ok).length + notFound);
      expect(await t.app.deps.db.offeringUser.count({ where: { id: ou.id } })).toBe(0);
    }
  });
});
