import { afterAll, beforeAll, expect, it } from "vitest";
import { loadBrokerSettings } from "../platform/settings/broker-settings.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { countSql } from "../../test/support/sql-counter.ts";

/**
 * What the site agents' messages add to a write: with a broker configured, each message the change makes costs the
 * two lookups of its queues (subscription queues, consumer queues) in the write's transaction, and nothing when no
 * broker is configured. No broker is needed to count: the relay is kept asleep, and nothing here is published.
 */
let plain: TestApp;
let brokered: TestApp;
beforeAll(async () => {
  plain = await startTestApp();
  const { broker } = loadBrokerSettings({
    RABBITMQ_MANAGEMENT_URL: "http://admin:secret@127.0.0.1:9",
    RABBITMQ_URL: "amqp://127.0.0.1:9",
    BROKER_RELAY_INTERVAL_MS: "3600000",
  });
  brokered = await startTestApp({ broker });
});
afterAll(async () => {
  await plain.close();
  await brokered.close();
});

async function transitionStatements(t: TestApp) {
  const offeringUser = await t.world.offeringUser("CREATION_REQUESTED");
  await t.http("GET", "/api/users/me/", { token: t.world.tokens.providerOwner }); // the token cached, as in steady use
  const { result, work } = await countSql(() =>
    t.http("POST", `/api/marketplace-offering-users/${offeringUser.uuid}/begin_creating/`, { token: t.world.tokens.providerOwner, body: {} }),
  );
  expect(result.status).toBe(200);
  return work;
}

it("an offering-user transition costs two statements more with a broker (its queues), none without", async () => {
  await transitionStatements(plain);
  await transitionStatements(brokered);
  const [without, withBroker] = [await transitionStatements(plain), await transitionStatements(brokered)];
  expect({ without, withBroker }).toEqual({ without, withBroker: without + 2 });
  expect(await brokered.app.deps.db.brokerOutbox.count()).toBe(0);
});
