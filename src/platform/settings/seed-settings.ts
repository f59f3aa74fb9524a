import { envFlag } from "./env-flag.ts";

export interface SeedSettings {
  /** Seed demo data (users with a published password) into an empty database at start-up. */
  seedDemo: boolean;
}

/**
 * Demo data only in the zero-setup mode (embedded database, not production) unless SEED_DEMO asks for it; never in
 * production, where the demo password would open every demo account.
 */
export function loadSeedSettings(env: NodeJS.ProcessEnv = process.env): SeedSettings {
  const production = env.NODE_ENV === "production";
  const raw = env.SEED_DEMO?.trim();
  if (!raw) return { seedDemo: !env.DATABASE_URL?.trim() && !production };
  const seedDemo = envFlag(raw);
  if (seedDemo && production) throw new Error("SEED_DEMO=true cannot be used with NODE_ENV=production: demo accounts share a published password");
  return { seedDemo };
}
