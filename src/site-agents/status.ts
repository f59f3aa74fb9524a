/** A service that has not registered for this long is shown as Idle (the agent re-registers on every loop). */
export const ACTIVE_WINDOW_MS = 60 * 60 * 1000;

export const AGENT_SERVICE_STATE_LABELS = { ACTIVE: "Active", IDLE: "Idle" } as const;
export type AgentServiceState = keyof typeof AGENT_SERVICE_STATE_LABELS;

export const agentServiceState = (modified: Date, now: Date): AgentServiceState =>
  now.getTime() - modified.getTime() <= ACTIVE_WINDOW_MS ? "ACTIVE" : "IDLE";

export type Compatibility = { status: "compatible" | "incompatible" | "unknown"; message: string; minimumRequired?: string };

const numericParts = (version: string) => (version.match(/\d+/g) ?? []).slice(0, 3).map(Number);

function compareVersions(a: string, b: string) {
  const [x, y] = [numericParts(a), numericParts(b)];
  for (let i = 0; i < 3; i++) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff) return Math.sign(diff);
  }
  return 0;
}

/** Compares the reported version with SITE_AGENT_MINIMUM_VERSION (release numbers only). */
export function agentCompatibility(version: string | null, minimum: string | undefined): Compatibility {
  if (!minimum) return { status: "unknown", message: "No minimum agent version is configured." };
  if (!version || !numericParts(version).length) return { status: "unknown", message: "The agent has not reported its version.", minimumRequired: minimum };
  return compareVersions(version, minimum) >= 0
    ? { status: "compatible", message: `Version ${version} meets the minimum ${minimum}.`, minimumRequired: minimum }
    : { status: "incompatible", message: `Version ${version} is older than the minimum ${minimum}.`, minimumRequired: minimum };
}
