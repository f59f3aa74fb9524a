import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventScopeType } from "../src/generated/prisma/client.ts";
import { maintenanceStateLabel } from "../src/maintenance/enums.ts";
import { seedMaintenance } from "./support/maintenance-fixtures.ts";
import { MAINTENANCE_TRANSITIONS } from "../src/maintenance/transitions.ts";
import { OFFERING_USER_STATES, stateLabel } from "../src/offering-users/states.ts";
import { OFFERING_USER_TRANSITIONS } from "../src/offering-users/transitions.ts";
import { makeOffering, orderIn } from "./support/order-fixtures.ts";
import { orderStateLabel } from "../src/resources/order-states.ts";
import { OFFERING_TYPES, ORDER_TRANSITIONS } from "../src/orders/transitions.ts";
import { failuresOf } from "./support/graphql-failures.ts";
import { globalId } from "./support/global-ids.ts";
import { startTestApp, type TestApp } from "./support/app.ts";
import { Random } from "./support/fuzz-values.ts";

/**
 * Hundreds of conflicting transitions on the same records at once, half over REST and half over GraphQL. For every
 * record: each successful call is exactly one applied change and one audit event, the events chain from the initial
 * state to the stored one along the transition table, and every other call is refused as a conflict, never a 5xx.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Persona = keyof TestApp["world"]["tokens"];

/** One state machine as the race sees it: its table (in labels), how to call an action, and how its events read. */
interface Machine {
  name: string;
  rules: Record<string, { from: readonly string[]; to: string }>;
  scope: EventScopeType;
  /** The GraphQL type whose global id the mutations take. */
  typename: string;
  restPath: (uuid: string, action: string) => string;
  mutation: (action: string) => string;
  /** Who calls each action: REST and GraphQL use different callers with the same rights. */
  callers: (action: string) => [rest: Persona, graphql: Persona];
  /** REST status and GraphQL code of a call refused because the state moved on. */
  conflict: { status: number; code: string };
  step: (event: { message: string; context: Record<string, unknown> }) => { action: string; from: string; to: string };
  stateOf: (id: string) => Promise<string>;
  /** How often each action is fired (default 1): terminal states are made rare, so that long chains are raced. */
  weights?: Record<string, number>;
  /** The state a refusal says the record was in, where its message names one. */
  refusedFrom?: (message: string) => string | undefined;
}

const labelled = <S extends string>(rules: Record<string, { from: readonly S[]; to: S }>, label: (s: S) => string, targets: Record<string, S> = {}) =>
  Object.fromEntries(Object.entries(rules).map(([action, rule]) => [action, { from: rule.from.map(label), to: label(targets[action] ?? rule.to) }]));

const fromContext = (key: string) => (event: { context: Record<string, unknown> }) => ({
  action: String(event.context[key]),
  from: String(event.context.old_state),
  to: String(event.context.new_state),
});

const OFFERING_USERS: Machine = {
  name: "offering users",
  rules: labelled(OFFERING_USER_TRANSITIONS, stateLabel),
  scope: "OFFERING_USER",
  typename: "OfferingUser",
  restPath: (uuid, action) => `/api/marketplace-offering-users/${uuid}/${action}/`,
  mutation: (action) => `${OFFERING_USER_TRANSITIONS[action as keyof typeof OFFERING_USER_TRANSITIONS].mutation}(input: { id: $id }) { ... on OfferingUser { uuid } ${failuresOf(OFFERING_USER_TRANSITIONS[action as keyof typeof OFFERING_USER_TRANSITIONS].mutation)} }`,
  callers: () => ["providerOwner", "providerManager"],
  conflict: { status: 400, code: "INVALID_TRANSITION" },
  weights: { set_deleted: 0.05 },
  step: fromContext("operation"),
  stateOf: async (id) => stateLabel((await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id } })).state),
  refusedFrom: (message) => {
    const code = Number(/from current state: (\d+)\./.exec(message)?.[1]);
    return Object.values(OFFERING_USER_STATES).find((state) => state.code === code)?.label;
  },
};

const ORDER_BASE = {
  scope: "ORDER" as const,
  typename: "Order",
  restPath: (uuid: string, action: string) => `/api/marketplace-orders/${uuid}/${action}/`,
  mutation: (action: string) =>
    `${ORDER_TRANSITIONS[action as keyof typeof ORDER_TRANSITIONS].mutation}(input: { id: $id }) { ... on OrderActionResult { state } ${failuresOf(ORDER_TRANSITIONS[action as keyof typeof ORDER_TRANSITIONS].mutation)} }`,
  callers: (action: string): [Persona, Persona] =>
    ORDER_TRANSITIONS[action as keyof typeof ORDER_TRANSITIONS].effect.side === "consumer" ? ["projectAdmin", "projectManager"] : ["providerOwner", "providerManager"],
  conflict: { status: 409, code: "CONFLICT" },
  // An order that stays erred writes no old/new state; the message always names both.
  step: (event: { message: string; context: Record<string, unknown> }) => {
    const [, from, to] = /moved from (.+) to (.+)\.$/.exec(event.message) ?? [];
    return { action: String(event.context.action), from, to };
  },
  stateOf: async (id: string) => orderStateLabel((await t.app.deps.db.order.findUniqueOrThrow({ where: { id } })).state),
};

/** The project member's order on an offering without auto-approval: consumer approval leads to the provider's. */
const ORDER_RULES = labelled(ORDER_TRANSITIONS, orderStateLabel, { approve_by_consumer: "PENDING_PROVIDER" });
const pick = (rules: Record<string, { from: readonly string[]; to: string }>, actions: string[]) =>
  Object.fromEntries(actions.map((action) => [action, rules[action]]));

const SLURM_ORDERS: Machine = {
  ...ORDER_BASE,
  name: "Slurm orders",
  rules: pick(ORDER_RULES, ["approve_by_provider", "reject_by_provider", "set_state_executing", "set_state_done", "set_state_erred"]),
};

const BASIC_ORDERS: Machine = {
  ...ORDER_BASE,
  name: "Basic orders",
  rules: pick(ORDER_RULES, ["approve_by_consumer", "reject_by_consumer", "approve_by_provider", "reject_by_provider", "cancel", "set_state_done"]),
};

const MAINTENANCE: Machine = {
  name: "maintenance announcements",
  rules: labelled(MAINTENANCE_TRANSITIONS, maintenanceStateLabel),
  scope: "MAINTENANCE",
  typename: "MaintenanceAnnouncement",
  restPath: (uuid, action) => `/api/maintenance-announcements/${uuid}/${action}/`,
  mutation: (action) =>
    `${MAINTENANCE_TRANSITIONS[action as keyof typeof MAINTENANCE_TRANSITIONS].mutation}(input: { id: $id }) { ... on MaintenanceAnnouncement { uuid } ${failuresOf(MAINTENANCE_TRANSITIONS[action as keyof typeof MAINTENANCE_TRANSITIONS].mutation)} }`,
  callers: () => ["providerOwner", "providerManager"],
  conflict: { status: 409, code: "CONFLICT" },
  weights: { schedule: 3, unschedule: 3, start_maintenance: 0.5, complete_maintenance: 0.3, cancel_maintenance: 0.1 },
  step: fromContext("action"),
  stateOf: async (id) => maintenanceStateLabel((await t.app.deps.db.maintenanceAnnouncement.findUniqueOrThrow({ where: { id } })).state),
};

interface Outcome {
  via: "REST" | "GraphQL";
  action: string;
  ok: boolean;
  /** REST status, or the GraphQL error code. */
  detail: number | string;
  message?: string;
}

type GraphqlAnswer = { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };

const isFailure = (value: unknown): value is { code: string; message: string } =>
  typeof value === "object" && value !== null && "code" in value && "message" in value;

/** The refusal in a GraphQL answer: its first error, or a typed failure a mutation returned (selected with FAILURE). */
function failureOf(result: GraphqlAnswer): { code: string; message: string } | undefined {
  const error = result.errors?.[0];
  if (error) return { code: String(error.extensions?.code), message: error.message };
  return Object.values(result.data ?? {}).find(isFailure);
}

async function call(machine: Machine, uuid: string, action: string, via: Outcome["via"]): Promise<Outcome> {
  const [restCaller, graphqlCaller] = machine.callers(action);
  if (via === "REST") {
    const res = await t.http("POST", machine.restPath(uuid, action), { token: t.world.tokens[restCaller], body: {} });
    return { via, action, ok: res.status >= 200 && res.status < 300, detail: res.status, message: res.body?.detail };
  }
  const result = await t.gql(`mutation($id: ID!) { ${machine.mutation(action)} }`, { id: globalId(machine.typename, uuid) }, t.world.tokens[graphqlCaller]);
  const failure = failureOf(result);
  return { via, action, ok: !failure && result.data != null, detail: failure?.code ?? "ok", message: failure?.message };
}

/** Fires every call at once, every other one over GraphQL. */
const race = (machine: Machine, uuid: string, actions: string[]) =>
  Promise.all(actions.map((action, i) => call(machine, uuid, action, i % 2 === 0 ? "REST" : "GraphQL")));

async function stepsOf(machine: Machine, id: string) {
  const events = await t.app.deps.db.event.findMany({
    where: { scopes: { some: { scopeType: machine.scope, scopeId: id } } },
    orderBy: { id: "asc" },
  });
  return events.map((event) => machine.step({ message: event.message, context: event.context as Record<string, unknown> }));
}

const count = (items: string[]) => items.reduce<Record<string, number>>((counts, item) => ({ ...counts, [item]: (counts[item] ?? 0) + 1 }), {});

/** Checks one record after its race; returns how many calls succeeded. */
async function verify(machine: Machine, record: { id: string; initial: string }, outcomes: Outcome[]) {
  const refused = outcomes.filter((o) => !o.ok);
  const unexpected = refused.filter((o) => o.detail !== (o.via === "REST" ? machine.conflict.status : machine.conflict.code));
  expect(unexpected, `${machine.name}: calls refused otherwise than as a conflict`).toEqual([]);
  // A refusal names a state the action cannot start from (not one it lost a race in and could have retried from).
  const dishonest = refused.filter((o) => {
    const from = machine.refusedFrom?.(o.message ?? "");
    return from !== undefined && machine.rules[o.action].from.includes(from);
  });
  expect(dishonest, `${machine.name}: refused from a state the action allows`).toEqual([]);

  const steps = await stepsOf(machine, record.id);
  const succeeded = outcomes.filter((o) => o.ok);
  expect(steps, `${machine.name}: one event per successful call`).toHaveLength(succeeded.length);
  expect(count(steps.map((s) => s.action))).toEqual(count(succeeded.map((o) => o.action)));

  // The events replay the record's history along the table, from where it started to where it is.
  let state = record.initial;
  for (const [i, step] of steps.entries()) {
    const rule = machine.rules[step.action];
    expect({ i, ...step }).toEqual({ i, action: step.action, from: state, to: rule.to });
    expect(rule.from, `${machine.name}: ${step.action} applied from ${step.from}`).toContain(step.from);
    state = step.to;
  }
  expect(await machine.stateOf(record.id)).toBe(state);
  return succeeded.length;
}

/** A seeded mix of the machine's actions: every conflict the table allows, in no particular order. */
function actionMix(machine: Machine, size: number, seed: number): string[] {
  const random = new Random(seed);
  const choices = Object.keys(machine.rules).map((action) => [machine.weights?.[action] ?? 1, () => action] as const);
  return Array.from({ length: size }, () => random.weighted(choices));
}

async function raceRecords(machine: Machine, records: Array<{ id: string; uuid: string; initial: string }>, callsPerRecord: number) {
  const outcomes = await Promise.all(records.map((r, i) => race(machine, r.uuid, actionMix(machine, callsPerRecord, i + 1))));
  let succeeded = 0;
  for (const [i, record] of records.entries()) succeeded += await verify(machine, record, outcomes[i]);
  console.log(`${machine.name}: ${records.length * callsPerRecord} concurrent calls on ${records.length} records, ${succeeded} applied`);
  // Every record moved (terminal states stop some after the first winner).
  expect(succeeded).toBeGreaterThanOrEqual(records.length);
}

describe("concurrent conflicting transitions, REST and GraphQL at once", { timeout: 120_000 }, () => {
  it("offering users", async () => {
    const records = [];
    for (const state of ["CREATION_REQUESTED", "CREATION_REQUESTED", "OK"] as const) {
      const ou = await t.world.offeringUser(state);
      records.push({ ...ou, initial: stateLabel(state) });
    }
    await raceRecords(OFFERING_USERS, records, 100);
  });

  it("orders of a Slurm offering (provider actions)", async () => {
    const records = [];
    for (let i = 0; i < 3; i++) records.push({ ...(await orderIn(t.app.deps.db, t.world, "PENDING_PROVIDER")), initial: orderStateLabel("PENDING_PROVIDER") });
    await raceRecords(SLURM_ORDERS, records, 80);
  });

  it("orders of a Basic offering (consumer and provider actions)", async () => {
    const basic = await makeOffering(t.app.deps.db, t.world, OFFERING_TYPES.BASIC);
    const records = [];
    for (let i = 0; i < 3; i++) {
      records.push({ ...(await orderIn(t.app.deps.db, t.world, "PENDING_CONSUMER", { offeringId: basic.id })), initial: orderStateLabel("PENDING_CONSUMER") });
    }
    await raceRecords(BASIC_ORDERS, records, 60);
  });

  it("maintenance announcements, with their system announcement in step", async () => {
    const records = [];
    for (let i = 0; i < 3; i++) records.push({ ...(await seedMaintenance(t)), initial: maintenanceStateLabel("DRAFT") });
    await raceRecords(MAINTENANCE, records, 80);
    for (const record of records) {
      const state = await MAINTENANCE.stateOf(record.id);
      const announcements = await t.app.deps.db.adminAnnouncement.count({ where: { maintenanceId: record.id } });
      expect({ state, announcements }).toEqual({ state, announcements: ["Scheduled", "In progress", "Completed"].includes(state) ? 1 : 0 });
    }
  });
});

describe("concurrent deletions of one record", () => {
  /** Every DELETE but one finds the record already gone: 404 like any unknown uuid, never a 5xx. */
  async function raceDeletes(path: string, token: string) {
    const statuses = await Promise.all(Array.from({ length: 8 }, () => t.http("DELETE", path, { token }).then((r) => r.status)));
    expect(statuses.sort()).toEqual([204, 404, 404, 404, 404, 404, 404, 404]);
  }

  it("terms of service", async () => {
    const created = await t.http("POST", "/api/marketplace-offering-terms-of-service/", {
      token: t.world.tokens.providerOwner,
      body: { offering: t.world.offering.uuid, terms_of_service: "Be kind.", version: "race" },
    });
    expect(created.status).toBe(201);
    await raceDeletes(`/api/marketplace-offering-terms-of-service/${created.body.uuid}/`, t.world.tokens.providerOwner);
    const events = await t.app.deps.db.event.count({ where: { eventType: "terms_of_service_deleted", context: { path: ["terms_of_service_uuid"], equals: created.body.uuid } } });
    expect(events).toBe(1);
  });

  it("maintenance announcements", async () => {
    const announcement = await seedMaintenance(t);
    await raceDeletes(`/api/maintenance-announcements/${announcement.uuid}/`, t.world.tokens.providerOwner);
  });

  it("offering users", async () => {
    const offeringUser = await t.world.offeringUser("OK");
    await raceDeletes(`/api/marketplace-offering-users/${offeringUser.uuid}/`, t.world.tokens.staff);
  });
});

describe("concurrent check-then-insert", () => {
  /**
   * Half over REST, half over GraphQL. Counts REST statuses and GraphQL error codes ("ok" for success), and the
   * messages of the refusals: each must be the one a sequential caller gets, not a constraint's generic one.
   */
  async function both(n: number, rest: () => Promise<{ status: number; body: any }>, graphql: () => Promise<GraphqlAnswer>) {
    const calls = Array.from({ length: n }, (_, i) =>
      i % 2 === 0
        ? rest().then((r) => ({ outcome: String(r.status), message: r.status >= 400 ? JSON.stringify(r.body) : undefined }))
        : graphql().then((r) => ({ outcome: failureOf(r)?.code ?? "ok", message: failureOf(r)?.message })),
    );
    const results = await Promise.all(calls);
    return { outcomes: count(results.map((r) => r.outcome)), messages: count(results.flatMap((r) => (r.message ? [r.message] : []))) };
  }

  it("20 consents of one user to one offering: one recorded, the rest refused as already given", async () => {
    const offering = await makeOffering(t.app.deps.db, t.world, OFFERING_TYPES.SLURM);
    await t.app.deps.db.offeringTermsOfService.create({ data: { offeringId: offering.id, isActive: true, version: "1" } });
    const token = t.world.tokens.projectMember;
    const { outcomes, messages } = await both(
      20,
      () => t.http("POST", "/api/marketplace-user-offering-consents/", { token, body: { offering: offering.uuid } }),
      () => t.gql(`mutation($o: ID!) { grantOfferingConsent(input: { offeringUuid: $o }) { ... on UserOfferingConsent { uuid } ... on Error { code message } } }`, { o: offering.uuid }, token),
    );
    expect(Object.values(outcomes).reduce((a, b) => a + b)).toBe(20);
    expect((outcomes["201"] ?? 0) + (outcomes.ok ?? 0)).toBe(1);
    expect((outcomes["400"] ?? 0) + (outcomes.VALIDATION ?? 0)).toBe(19);
    const already = "You have already consented to the current terms of service of this offering.";
    expect(Object.keys(messages).sort()).toEqual([already, JSON.stringify({ non_field_errors: [already] })].sort());
    expect(await t.app.deps.db.userOfferingConsent.count({ where: { offeringId: offering.id } })).toBe(1);
    const events = await t.app.deps.db.event.count({ where: { eventType: "terms_of_service_consent_granted", context: { path: ["offering_uuid"], equals: offering.uuid } } });
    expect(events).toBe(1);
  });

  it("10 Terminate orders for one resource: one pending order, the rest refused", async () => {
    const { resource } = await orderIn(t.app.deps.db, t.world, "DONE", { type: "TERMINATE", resourceState: "OK" });
    const token = t.world.tokens.projectAdmin;
    const body = { offering: t.world.offering.uuid, project: t.world.project.uuid, resource: resource.uuid, type: "Terminate" };
    const { outcomes, messages } = await both(
      10,
      () => t.http("POST", "/api/marketplace-orders/", { token, body }),
      () =>
        t.gql(
          `mutation($o: ID!, $p: ID!, $r: ID!) { createOrder(input: { offeringUuid: $o, projectUuid: $p, resourceUuid: $r, type: TERMINATE }) { ... on Order { uuid } ${failuresOf("createOrder")} } }`,
          { o: t.world.offering.uuid, p: t.world.project.uuid, r: resource.uuid },
          token,
        ),
    );
    expect((outcomes["201"] ?? 0) + (outcomes.ok ?? 0)).toBe(1);
    expect((outcomes["400"] ?? 0) + (outcomes.VALIDATION ?? 0)).toBe(9);
    const pendingExists = "Pending order for resource already exists.";
    expect(Object.keys(messages).sort()).toEqual([pendingExists, JSON.stringify({ resource: [pendingExists] })].sort());
    const pending = await t.app.deps.db.order.count({ where: { resourceId: resource.id, state: { notIn: ["DONE", "ERRED", "CANCELED", "REJECTED"] } } });
    expect(pending).toBe(1);
  });
});
