import type { AppDeps, BrokerDeps } from "../context.ts";
import { BrokerManagement } from "../broker/management.ts";
import { AmqpPublisher } from "../broker/publisher.ts";
import { BrokerRelay, type RelayReports } from "../broker/relay.ts";
import type { BrokerConnection } from "../platform/settings/broker-settings.ts";
import { followTopic } from "../platform/messaging/pubsub.ts";
import { removeSubscriptionsOfTokens, sweepBrokerLogins } from "./teardown.ts";

export interface AgentBrokerReports extends RelayReports {
  /** Housekeeping (removing the broker logins of revoked tokens) failed; it is tried again later. */
  cleanupFailed(error: unknown): void;
}

const SWEEP_MS = 10 * 60_000;

/**
 * The site agents' broker on this instance: provisioning, the outbox relay, and the removal of subscriptions whose
 * token was revoked (at once, on every instance's `tokenRevoked`) or has gone otherwise, and of broker logins left
 * behind (a sweep at start and every 10 minutes).
 */
export function openAgentBroker(connection: BrokerConnection, deps: Pick<AppDeps, "db" | "pubsub">, reports: AgentBrokerReports) {
  const management = new BrokerManagement(connection);
  const publisher = new AmqpPublisher(connection);
  const relay = new BrokerRelay(deps.db, publisher, reports, { intervalMs: connection.relayIntervalMs, claimSeconds: connection.claimSeconds, retryMaxMs: connection.retryMaxMs });
  const broker: BrokerDeps = { management, wake: () => relay.wake() };
  const teardown = { db: deps.db, broker };
  const sweep = () =>
    removeSubscriptionsOfTokens(teardown, "gone")
      .then(() => sweepBrokerLogins(teardown))
      .catch(reports.cleanupFailed);
  const sweeper = setInterval(() => void sweep(), SWEEP_MS).unref();
  // A revocation lost while the feed was down is caught by the sweep, as a token that has gone.
  const revocations = followTopic(deps.pubsub, "tokenRevoked", (revoked) => removeSubscriptionsOfTokens(teardown, revoked.tokenDigests), {
    onSubscribe: (again) => {
      if (again) void sweep();
    },
    onError: reports.cleanupFailed,
  });
  relay.start();
  void sweep();
  return {
    broker,
    relay,
    async close() {
      clearInterval(sweeper);
      await revocations.close();
      await relay.stop();
      await publisher.close();
    },
  };
}
