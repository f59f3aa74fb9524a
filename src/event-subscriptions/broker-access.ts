import type { Context } from "../context.ts";
import { BrokerError, type BrokerManagement } from "../broker/management.ts";
import { refused } from "../platform/errors.ts";

export const NOT_CONFIGURED = "Event subscriptions are not configured.";

/** The broker, or Waldur's refusal when none is configured (the agent then keeps to its hourly REST sweep). */
export function configuredBroker(ctx: Context): BrokerManagement {
  if (!ctx.broker) throw refused(NOT_CONFIGURED);
  return ctx.broker.management;
}

/** The agent's own token: its broker password. A request that presented none (a WebSocket) cannot register. */
export function presentedToken(ctx: Context): { key: string; digest: string } {
  if (!ctx.tokenKey || !ctx.tokenDigest) throw refused("Event subscriptions are registered with a token (Authorization: Token …).");
  return { key: ctx.tokenKey, digest: ctx.tokenDigest };
}

/** Runs broker provisioning; a broker failure is Waldur's 400 "Failed to create RabbitMQ …". */
export async function provisioned(what: string, work: () => Promise<void>) {
  try {
    await work();
  } catch (error) {
    if (error instanceof BrokerError) throw refused(`Failed to create RabbitMQ ${what}: ${error.message}`);
    throw error;
  }
}
