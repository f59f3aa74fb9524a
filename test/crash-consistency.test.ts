import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { stateLabel } from "../src/offering-users/states.ts";
import type { Database } from "../src/platform/database/connect.ts";
import type { OfferingUserState } from "../src/generated/prisma/client.ts";
import { type GatewayProcess, killGateways, startGateway } from "./support/server-process.ts";
import { embeddedStorage, type GatewayStorage, postgresStorage } from "./support/storage.ts";
import { buildWorld } from "./support/world.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
/** The offering-user lifecycle each transition client walks its offering users through, with the labels events carry. */
const LIFECYCLE: Array<[operation: string, label: string]> = [
  ["begin_creating", "Creating"],
  ["set_ok", "OK"],
  ["request_deletion", "Requested deletion"],
  ["set_deleting", "Deleting"],
  ["set_deleted", "Deleted"],
];
const TRANSITION_CLIENTS = 8;
const OFFERING_USERS_PER_CLIENT = 8;
/** Each usage client reports 1, 2, 3… (cpu n, ram 2n) for a resource of its own. */
const USAGE_CLIENTS = 4;
const MAX_REPORTS_PER_CLIENT = 1_000;
const KILL_AFTER_ACKNOWLEDGED = 60;
const KILL_JITTER_MS = 30;

/** What the clients were told: `acknowledged` answers were 2xx; `pending` was sent and never answered. */
interface OfferingUserLedger {
  id: string;
  uuid: string;
  acknowledged: number;
  pending: boolean;
}
interface ResourceLedger {
  id: string;
  uuid: string;
  acknowledged: number;
  pending: number | null;
}

const storages: GatewayStorage[] = [];
afterAll(async () => {
  killGateways();
  for (const storage of storages) await storage.dispose();
});

async function seed(storage: GatewayStorage) {
  const database = await storage.open();
  const world = await buildWorld(database.prisma);
  const offeringUsers: OfferingUserLedger[] = [];
  for (let i = 0; i < TRANSITION_CLIENTS * OFFERING_USERS_PER_CLIENT; i++) {
    offeringUsers.push({ ...(await world.offeringUser("CREATION_REQUESTED")), acknowledged: 0, pending: false });
  }
  const resources: ResourceLedger[] = [];
  for (let i = 0; i < USAGE_CLIENTS; i++) {
    const resource = await database.prisma.resource.create({
      data: { name: `allocation ${i}`, state: "OK", offeringId: world.offering.id, projectId: world.project.id },
    });
    resources.push({ id: resource.id, uuid: resource.id.replaceAll("-", ""), acknowledged: 0, pending: null });
  }
  const afterRestart = await world.offeringUser("CREATION_REQUESTED");
  await database.close();
  return { token: world.tokens.staff, offering: world.offering, offeringUsers, resources, afterRestart };
}

/** Many concurrent clients write until KILL_AFTER_ACKNOWLEDGED answers came back, then the server gets SIGKILL. */
async function writeUntilKilled(gateway: GatewayProcess, token: string, offeringUsers: OfferingUserLedger[], resources: ResourceLedger[]) {
  let acknowledged = 0;
  let atKill: { acknowledged: number; inFlight: number } | undefined;
  const unexpected: string[] = [];
  const inFlight = () => offeringUsers.filter((ou) => ou.pending).length + resources.filter((r) => r.pending !== null).length;
  const post = (path: string, body?: unknown) =>
    fetch(`${gateway.baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Token ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body ?? {}),
    }).catch(() => null);
  let killScheduled = false;
  const acknowledge = () => {
    if (++acknowledged < KILL_AFTER_ACKNOWLEDGED || killScheduled) return;
    killScheduled = true;
    // A little later than the answer that crossed the line, so the kill lands anywhere in the server's work.
    setTimeout(() => {
      atKill = { acknowledged, inFlight: inFlight() };
      gateway.signal("SIGKILL");
    }, Math.random() * KILL_JITTER_MS);
  };

  const transitionClient = async (slice: OfferingUserLedger[]) => {
    for (const ou of slice) {
      for (const [operation] of LIFECYCLE) {
        ou.pending = true;
        const response = await post(`/api/marketplace-offering-users/${ou.uuid}/${operation}/`);
        if (!response) return;
        ou.pending = false;
        if (response.status !== 200) return void unexpected.push(`${operation}: ${response.status} ${await response.text()}`);
        ou.acknowledged++;
        acknowledge();
      }
    }
  };
  const usageClient = async (resource: ResourceLedger) => {
    for (let n = 1; n <= MAX_REPORTS_PER_CLIENT; n++) {
      resource.pending = n;
      const usages = [{ type: "cpu", amount: String(n) }, { type: "ram", amount: String(2 * n) }];
      const response = await post("/api/marketplace-component-usages/set_usage/", { resource: resource.uuid, usages });
      if (!response) return;
      resource.pending = null;
      if (response.status !== 201) return void unexpected.push(`set_usage: ${response.status} ${await response.text()}`);
      resource.acknowledged = n;
      acknowledge();
    }
  };

  const slices = Array.from({ length: TRANSITION_CLIENTS }, (_, i) =>
    offeringUsers.slice(i * OFFERING_USERS_PER_CLIENT, (i + 1) * OFFERING_USERS_PER_CLIENT),
  );
  await Promise.all([...slices.map(transitionClient), ...resources.map(usageClient)]);
  expect(unexpected).toEqual([]);
  expect(await gateway.exited).toEqual({ code: null, signal: "SIGKILL" });
  return { ...atKill!, answeredAfterKill: acknowledged - atKill!.acknowledged };
}

/**
 * The invariants after the crash: every offering user's events form one unbroken chain from Requested to the
 * state it is in (a change without its event, or an event without its change, breaks the chain), every
 * acknowledged request is in it, and each usage report's rows and the resource's current usage agree.
 */
async function checkConsistency(database: Database, offeringUsers: OfferingUserLedger[], resources: ResourceLedger[]) {
  const problems: string[] = [];
  const { rows: states } = await database.sql.query<{ id: string; state: OfferingUserState }>(
    "SELECT id::text, state::text FROM offering_users WHERE id = ANY($1::uuid[])",
    [offeringUsers.map((ou) => ou.id)],
  );
  const stateOf = new Map(states.map((row) => [row.id, row.state]));
  const { rows: events } = await database.sql.query<{ offering_user_uuid: string; old_state: string; new_state: string }>(
    `SELECT context->>'offering_user_uuid' AS offering_user_uuid, context->>'old_state' AS old_state, context->>'new_state' AS new_state
       FROM events WHERE context ? 'offering_user_uuid' ORDER BY id`,
  );
  let committedInFlight = 0;
  for (const ou of offeringUsers) {
    const chain = events.filter((event) => event.offering_user_uuid === ou.uuid);
    const path = ["Requested", ...LIFECYCLE.slice(0, chain.length).map(([, label]) => label)];
    const expectedChain = path.slice(1).map((label, i) => `${path[i]} → ${label}`);
    const actualChain = chain.map((event) => `${event.old_state} → ${event.new_state}`);
    if (actualChain.join() !== expectedChain.join()) problems.push(`${ou.uuid}: events ${actualChain.join(", ")}`);
    if (stateLabel(stateOf.get(ou.id)!) !== path.at(-1)) problems.push(`${ou.uuid}: state ${stateOf.get(ou.id)} but events end at ${path.at(-1)}`);
    if (chain.length < ou.acknowledged) problems.push(`${ou.uuid}: ${ou.acknowledged} transitions acknowledged, ${chain.length} stored`);
    if (chain.length > ou.acknowledged + (ou.pending ? 1 : 0)) problems.push(`${ou.uuid}: ${chain.length} events for ${ou.acknowledged} transitions`);
    if (ou.pending && chain.length > ou.acknowledged) committedInFlight++;
  }
  const { rows: unscoped } = await database.sql.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM events e WHERE NOT EXISTS (SELECT 1 FROM event_scopes s WHERE s.event_id = e.id)",
  );
  if (unscoped[0].n) problems.push(`${unscoped[0].n} events without their scopes`);

  for (const resource of resources) {
    const { rows } = await database.sql.query<{ type: string; usage: string }>(
      `SELECT c.type, u.usage::text FROM component_usages u JOIN offering_components c ON c.id = u.component_id WHERE u.resource_id = $1`,
      [resource.id],
    );
    const { rows: current } = await database.sql.query<{ current_usages: Record<string, number> }>(
      "SELECT current_usages FROM resources WHERE id = $1",
      [resource.id],
    );
    const stored = Object.fromEntries(rows.map((row) => [row.type, Number(row.usage)]));
    const n = stored.cpu ?? 0;
    const expected: Record<string, number> = n ? { cpu: n, ram: 2 * n } : {};
    if (n !== resource.acknowledged && n !== resource.pending) problems.push(`${resource.uuid}: report ${n} stored, ${resource.acknowledged} acknowledged`);
    if (canonical(stored) !== canonical(expected)) problems.push(`${resource.uuid}: usage rows ${JSON.stringify(stored)}`);
    if (canonical(current[0].current_usages) !== canonical(expected)) {
      problems.push(`${resource.uuid}: current_usages ${JSON.stringify(current[0].current_usages)}, rows ${JSON.stringify(stored)}`);
    }
    if (resource.pending !== null && n === resource.pending) committedInFlight++;
  }
  return { problems, committedInFlight, events: events.length };
}

const canonical = (amounts: Record<string, number>) => JSON.stringify(Object.entries(amounts).sort(([a], [b]) => a.localeCompare(b)));

async function crashAndRestart(storage: GatewayStorage) {
  storages.push(storage);
  const { token, offering, offeringUsers, resources, afterRestart } = await seed(storage);
  const first = await startGateway(storage.env);
  const kill = await writeUntilKilled(first, token, offeringUsers, resources);
  if (storage.dataDir) expect(readFileSync(`${storage.dataDir}.lock`, "utf8")).toBe(String(first.pid));

  // The same storage serves again (for the embedded database: the dead process's lock is taken over).
  const second = await startGateway(storage.env);
  const listed = await fetch(`${second.baseUrl}/api/marketplace-offering-users/?offering_uuid=${offering.uuid}&page_size=300`, {
    headers: { authorization: `Token ${token}` },
  });
  expect(listed.status).toBe(200);
  const servedStates = new Map((await listed.json()).map((ou: { uuid: string; state: string }) => [ou.uuid, ou.state]));
  const afterwards = await fetch(`${second.baseUrl}/api/marketplace-offering-users/${afterRestart.uuid}/begin_creating/`, {
    method: "POST",
    headers: { authorization: `Token ${token}` },
  });
  expect(afterwards.status).toBe(200);
  expect(await second.stop()).toEqual({ code: 0, signal: null });

  const database = await storage.open();
  try {
    const consistency = await checkConsistency(database, offeringUsers, resources);
    console.log(
      `${storage.kind}: SIGKILL after ${kill.acknowledged} acknowledged writes with ${kill.inFlight} in flight ` +
        `(${kill.answeredAfterKill} more answered before it died); ${consistency.committedInFlight} of those in flight were committed; ` +
        `${consistency.events} offering-user events; problems: ${consistency.problems.length}`,
    );
    expect(consistency.problems).toEqual([]);
    for (const ou of offeringUsers) {
      const row = await database.prisma.offeringUser.findUniqueOrThrow({ where: { id: ou.id }, select: { state: true } });
      expect(servedStates.get(ou.uuid)).toBe(stateLabel(row.state));
    }
    const { rows } = await database.sql.query("SELECT context->>'new_state' AS new_state FROM events WHERE context->>'offering_user_uuid' = $1", [
      afterRestart.uuid,
    ]);
    expect(rows).toEqual([{ new_state: "Creating" }]);
  } finally {
    await database.close();
  }
}

describe("kill -9 in the middle of concurrent writes, then a restart on the same storage", () => {
  it("embedded database (PGlite data directory): nothing acknowledged is lost, no change without its event", async () => {
    await crashAndRestart(embeddedStorage());
  }, 180_000);

  it.skipIf(!postgresUrl)("PostgreSQL: nothing acknowledged is lost, no change without its event", async () => {
    await crashAndRestart(await postgresStorage(postgresUrl!));
  }, 180_000);
});
