import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { globalId } from "./support/global-ids.ts";
import { type ProxiedGateway, useProxiedGateway } from "./support/proxied-gateway.ts";
import { sleep } from "./support/ws.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
const UNAVAILABLE = { detail: "The database is unavailable." };
/** The gateway's connections, told apart from the test's own (which use the default application_name). */
const GATEWAY_APPLICATION = "gateway-under-outage";

/** Every backend the gateway holds on the test's database (never anyone else's). */
async function terminateGatewayBackends() {
  const { rows } = await gateway.observer.query(
    `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = $1`,
    [GATEWAY_APPLICATION],
  );
  return rows[0].n as number;
}

async function stateOf(id: string) {
  const { rows } = await gateway.observer.query("SELECT state FROM offering_users WHERE id = $1", [id]);
  return rows[0]?.state as string | undefined;
}

const beginCreating = (uuid: string) => gateway.fetch("POST", `/api/marketplace-offering-users/${uuid}/begin_creating/`);

let gateway: ProxiedGateway;

describe.skipIf(!postgresUrl)("PostgreSQL connection failures", () => {
  gateway = useProxiedGateway("outage", GATEWAY_APPLICATION);

  it("backends terminated during a burst of transitions: each answers 200 (written) or 503 with Retry-After (not written), never 500", async () => {
    const answers: Array<{ status: number; state?: string }> = [];
    for (let round = 0; round < 6; round++) {
      const ous = await Promise.all(Array.from({ length: 12 }, () => gateway.world.offeringUser()));
      const responses = Promise.all(ous.map((ou) => beginCreating(ou.uuid)));
      await sleep(round * 3);
      await terminateGatewayBackends();
      for (const [i, response] of (await responses).entries()) {
        answers.push({ status: response.status, state: await stateOf(ous[i]!.id) });
        if (response.status === 503) {
          expect(response.headers.get("retry-after")).toBe("1");
          expect([UNAVAILABLE.detail, "The database took too long to answer."]).toContain((await response.json()).detail);
        }
      }
    }
    const unexpected = answers.filter(
      (a) => !(a.status === 200 && a.state === "CREATING") && !(a.status === 503 && a.state === "CREATION_REQUESTED"),
    );
    expect(unexpected).toEqual([]);
    expect(answers.some((a) => a.status === 503)).toBe(true);
  });

  it("a backend terminated while its transition waits on a lock: 503 with Retry-After, nothing written", async () => {
    const ou = await gateway.world.offeringUser();
    const locker = new pg.Client({ connectionString: gateway.storage.url });
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query("SELECT 1 FROM offering_users WHERE id = $1 FOR UPDATE", [ou.id]);
    const pending = beginCreating(ou.uuid);
    for (let waiting = 0; waiting === 0; await sleep(20)) {
      const { rows } = await gateway.observer.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND wait_event_type = 'Lock'",
        [GATEWAY_APPLICATION],
      );
      waiting = rows[0].n;
    }
    expect(await terminateGatewayBackends()).toBeGreaterThanOrEqual(1);
    const response = await pending;
    await locker.query("ROLLBACK");
    await locker.end();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toEqual(UNAVAILABLE);
    expect(await stateOf(ou.id)).toBe("CREATION_REQUESTED");
    // The pool recovers: the same transition goes through now.
    expect((await beginCreating(ou.uuid)).status).toBe(200);
  });

  it("the database becoming unreachable right after a commit: the committed change answers success, with its new state", async () => {
    const ou = await gateway.world.offeringUser();
    const cut = gateway.proxy.cutAfterNextCommit();
    const response = await beginCreating(ou.uuid);
    await cut;
    // The pool drops the cut connections on their close events; until then the next request could draw a dead one (a 503).
    await vi.waitFor(() => expect(gateway.app.database.poolUsage().total).toBe(0));
    expect(await stateOf(ou.id)).toBe("CREATING");
    expect(response.status).toBe(200);

    await gateway.proxy.resume();
    const cutAgain = gateway.proxy.cutAfterNextCommit();
    const graphql = await gateway.fetch("POST", "/graphql", { query: `mutation { setOkOfferingUser(input: { id: "${globalId("OfferingUser", ou.uuid)}" }) { ... on OfferingUser { uuid state offering { name } } } }` });
    await cutAgain;
    expect(await stateOf(ou.id)).toBe("OK");
    expect(await graphql.json()).toEqual({ data: { setOkOfferingUser: { uuid: ou.uuid, state: "OK", offering: { name: expect.any(String) } } } });
    await gateway.proxy.resume();
  });

  it("an unreachable database: reads and writes answer 503 with Retry-After", async () => {
    await gateway.proxy.cut();
    const ou = await gateway.world.offeringUser();
    for (const response of [await gateway.fetch("GET", "/api/marketplace-offering-users/"), await beginCreating(ou.uuid)]) {
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.json()).toEqual(UNAVAILABLE);
    }
    const graphql = await gateway.fetch("POST", "/graphql", { query: "{ offeringUsers { totalCount } }" });
    expect((await graphql.json()).errors).toEqual([expect.objectContaining({ message: UNAVAILABLE.detail, extensions: expect.objectContaining({ code: "UNAVAILABLE" }) })]);
    expect(await stateOf(ou.id)).toBe("CREATION_REQUESTED");
  });
});
