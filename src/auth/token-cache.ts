import type { Viewer } from "./access.ts";

/** What authenticating a token reads: the viewer, and what decides whether the token still holds. */
export interface TokenRow extends Viewer {
  isActive: boolean;
  lastUsed: Date;
  tokenLifetime: number | null;
}

const MAX_ENTRIES = 10_000;

/**
 * Tokens recently found valid, for `ttlMs`, so a busy token costs no lookup per request. Only acceptances are kept
 * (a refusal is always read again), a revocation on any instance drops the token at once (`TokenSessions.end`, fed by
 * `tokenRevoked`), and `ttlMs` bounds what a lost revocation message or a deactivation can leave behind.
 */
export class TokenCache {
  private readonly entries = new Map<string, { row: TokenRow; until: number }>();

  constructor(readonly ttlMs: number) {}

  get(digest: string, now: Date): TokenRow | undefined {
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (entry.until > now.getTime()) return entry.row;
    this.entries.delete(digest);
    return undefined;
  }

  set(digest: string, row: TokenRow, now: Date) {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value ?? digest);
    this.entries.set(digest, { row, until: now.getTime() + this.ttlMs });
  }

  /** The token was used at `lastUsed` (and that use recorded). */
  used(digest: string, lastUsed: Date) {
    const entry = this.entries.get(digest);
    if (entry) entry.row = { ...entry.row, lastUsed };
  }

  forget(digests: Iterable<string>) {
    for (const digest of digests) this.entries.delete(digest);
  }
}
