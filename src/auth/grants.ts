import type { Db } from "../platform/database.ts";
import type { Role } from "./permissions.ts";

/** What a role is held on. */
export type ScopeType = "CUSTOMER" | "PROJECT" | "OFFERING";

export interface Grant {
  role: Role;
  scopeType: ScopeType;
  scopeId: string;
}

/** Active, unexpired role grants of some users, keyed by user. */
async function activeGrants(db: Db, userIds: string[], now: Date): Promise<Map<string, Grant[]>> {
  const rows = await db.roleGrant.findMany({
    where: { userId: { in: userIds }, isActive: true, OR: [{ expirationTime: null }, { expirationTime: { gt: now } }] },
    select: { userId: true, role: true, scopeType: true, scopeId: true },
  });
  const byUser = new Map<string, Grant[]>(userIds.map((id) => [id, []]));
  for (const { userId, ...grant } of rows) byUser.get(userId)!.push(grant as Grant);
  return byUser;
}

export const grantsOf = async (db: Db, userId: string, now: Date): Promise<Grant[]> => (await activeGrants(db, [userId], now)).get(userId)!;

const BATCH_SIZE = 1000;

/**
 * Reads the grants of every user asked for within one turn of the event loop in one statement (per thousand users):
 * a published change decides visibility for each subscribed user with freshly read roles, and one query for all
 * of them costs far less than one each.
 */
export class GrantsBatch {
  private waiting = new Map<string, Array<{ resolve: (grants: Grant[]) => void; reject: (error: unknown) => void }>>();

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  load(userId: string): Promise<Grant[]> {
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) setImmediate(() => void this.flush());
      const callbacks = this.waiting.get(userId) ?? [];
      callbacks.push({ resolve, reject });
      this.waiting.set(userId, callbacks);
    });
  }

  private async flush() {
    const batch = this.waiting;
    this.waiting = new Map();
    const ids = [...batch.keys()];
    for (let start = 0; start < ids.length; start += BATCH_SIZE) {
      const chunk = ids.slice(start, start + BATCH_SIZE);
      try {
        const grants = await activeGrants(this.db, chunk, this.now());
        for (const id of chunk) for (const { resolve } of batch.get(id)!) resolve(grants.get(id)!);
      } catch (error) {
        for (const id of chunk) for (const { reject } of batch.get(id)!) reject(error);
      }
    }
  }
}
