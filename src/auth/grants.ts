import { tickBatch } from "../platform/database/batch.ts";
import type { Db } from "../platform/database/connect.ts";
import { Role } from "./permissions.ts";

/** What a role is held on. */
export type ScopeType = "CUSTOMER" | "PROJECT" | "OFFERING";

export interface Grant {
  role: Role;
  scopeType: ScopeType;
  scopeId: string;
  /**
   * On a customer, for a role that reaches its projects (CUSTOMER_PROJECT_ROLES): the customer's projects, read with the
   * grant so a customer-wide decision needs no second query. Empty otherwise: a customer with thousands of projects
   * would weigh on every read of its managers' roles.
   */
  projectIds: string[];
  expirationTime: Date | null;
}

type GrantRow = Grant & { userId: string };

/** The customer roles that reach the customer's projects (an owner sees the offering users of their members). */
export const CUSTOMER_PROJECT_ROLES: readonly Role[] = [Role.CUSTOMER_OWNER];

/** Active, unexpired role grants of some users, keyed by user. */
async function activeGrants(db: Db, userIds: string[], now: Date): Promise<Map<string, Grant[]>> {
  const rows = await db.$queryRaw<GrantRow[]>`
    SELECT g.user_id::text AS "userId", g.role, g.scope_type::text AS "scopeType", g.scope_id::text AS "scopeId",
           g.expiration_time AS "expirationTime",
           CASE WHEN g.scope_type = 'CUSTOMER' AND g.role = ANY(${CUSTOMER_PROJECT_ROLES}::text[])
                THEN ARRAY(SELECT p.id::text FROM projects p WHERE p.customer_id = g.scope_id ORDER BY p.id)
                ELSE ARRAY[]::text[] END AS "projectIds"
    FROM role_grants g
    WHERE g.user_id = ANY(${userIds}::uuid[]) AND g.is_active AND (g.expiration_time IS NULL OR g.expiration_time > ${now})`;
  const byUser = new Map<string, Grant[]>(userIds.map((id) => [id, []]));
  for (const { userId, ...grant } of rows) byUser.get(userId)!.push(grant);
  return byUser;
}

/** Where grants read recently are kept (./grants-cache.ts). */
export interface GrantsStore {
  get(userId: string, now: Date): Grant[] | undefined;
  readStarts(): number;
  set(userId: string, grants: Grant[], now: Date, readStarted: number): void;
}

/** A user's grants in force at `now`; from `cache` when it holds them (TOKEN_CACHE_MS), else read and kept there. */
export async function grantsOf(db: Db, userId: string, now: Date, cache?: GrantsStore): Promise<Grant[]> {
  const cached = cache?.get(userId, now);
  if (cached) return cached;
  const readStarted = cache?.readStarts() ?? 0;
  const grants = (await activeGrants(db, [userId], now)).get(userId)!;
  cache?.set(userId, grants, now, readStarted);
  return grants;
}

const BATCH_SIZE = 1000;

/**
 * Reads the grants of every user asked for within one turn of the event loop in one statement (per thousand users):
 * a published change decides visibility for each subscribed user with freshly read roles, and one query for all
 * of them costs far less than one each.
 */
export class GrantsBatch {
  /** The grants of one user, read with those of every user asked for in the same turn. */
  readonly load: (userId: string) => Promise<Grant[]>;

  constructor(db: Db, now: () => Date) {
    this.load = tickBatch<string, Grant[]>(async (userIds) => {
      const ids = [...new Set(userIds)];
      const byUser = new Map<string, Grant[]>();
      for (let start = 0; start < ids.length; start += BATCH_SIZE) {
        for (const [id, grants] of await activeGrants(db, ids.slice(start, start + BATCH_SIZE), now())) byUser.set(id, grants);
      }
      return (id) => byUser.get(id)!;
    });
  }
}
