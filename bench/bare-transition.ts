import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { OfferingUserState } from "../src/generated/prisma/client.ts";
import { Permission, ROLE_PERMISSIONS } from "../src/auth/permissions.ts";
import { stateLabel, OFFERING_USER_STATES } from "../src/offering-users/states.ts";
import { OFFERING_USER_TRANSITIONS, type OfferingUserOperation, ruleFor, storesComment } from "../src/offering-users/transitions.ts";
import { named } from "./named-statement.ts";

export interface Viewer {
  id: string;
  username: string;
  is_staff: boolean;
}

interface Core {
  id: string;
  state: OfferingUserState;
  offering_id: string;
  user_id: string;
  service_provider_comment: string;
  service_provider_comment_url: string;
  offering_name: string;
  customer_id: string;
  user_username: string;
  may_manage: boolean;
}

export interface Answer {
  status: number;
  body?: unknown;
}

const MANAGING_ROLES = Object.entries(ROLE_PERMISSIONS)
  .filter(([, permissions]) => permissions.includes(Permission.UPDATE_OFFERING_USER))
  .map(([role]) => role);

const CORE_SQL = `
  SELECT ou.id, ou.state, ou.offering_id, ou.user_id, ou.service_provider_comment, ou.service_provider_comment_url,
         o.name AS offering_name, o.customer_id, u.username AS user_username,
         ($2::boolean OR EXISTS (
           SELECT 1 FROM role_grants g
            WHERE g.user_id = $3 AND g.is_active AND (g.expiration_time IS NULL OR g.expiration_time > now())
              AND g.role = ANY($4::text[])
              AND ((g.scope_type = 'OFFERING' AND g.scope_id = ou.offering_id) OR (g.scope_type = 'CUSTOMER' AND g.scope_id = o.customer_id))
         )) AS may_manage
    FROM offering_users ou
    JOIN offerings o ON o.id = ou.offering_id
    JOIN users u ON u.id = ou.user_id
   WHERE ou.id = $1`;
const SWAP_SQL = `UPDATE offering_users SET state = $2, modified = $3 WHERE id = $1 AND state = $4`;
const SWAP_CLEARING_COMMENTS_SQL = `UPDATE offering_users SET state = $2, modified = $3, service_provider_comment = '', service_provider_comment_url = '' WHERE id = $1 AND state = $4`;
const STATE_SQL = `SELECT state FROM offering_users WHERE id = $1`;
const EVENT_SQL = `
  WITH event AS (
    INSERT INTO events (uuid, created, event_type, message, context, change)
    VALUES ($1::uuid, $2, $3, $4, $5::jsonb, $6::jsonb)
    RETURNING id
  ), scopes AS (
    INSERT INTO event_scopes (event_id, scope_type, scope_id)
    SELECT event.id, scope.type::"EventScopeType", scope.id::uuid
    FROM event, unnest($7::text[], $8::text[]) AS scope(type, id)
  )
  SELECT id FROM event`;
const SWAP_ATTEMPTS = 5;

const hex = (uuid: string) => uuid.replaceAll("-", "");
const isOperation = (name: string): name is OfferingUserOperation => Object.hasOwn(OFFERING_USER_TRANSITIONS, name);
const TRANSITION_PATH = /^\/api\/marketplace-offering-users\/([0-9a-f]{32}|[0-9a-f-]{36})\/([a-z_]+)\/?$/i;

/** The uuid and operation of a transition path. */
export function transitionIn(pathname: string): { uuid: string; operation: OfferingUserOperation } | undefined {
  const match = TRANSITION_PATH.exec(pathname);
  if (!match || !isOperation(match[2]) || storesComment(match[2])) return undefined;
  return { uuid: match[1], operation: match[2] };
}

function invalidTransition(operation: OfferingUserOperation, current: OfferingUserState): Answer {
  const rule = ruleFor(operation);
  const valid = rule.from.map(stateLabel).join(", ");
  return { status: 400, body: { detail: `Cannot transition to ${stateLabel(rule.to)} from current state: ${OFFERING_USER_STATES[current].code}. Valid states for operation: ${valid}.` } };
}

/** The event as recordOfferingUserChange and recordEvent build it: context, scopes (deduplicated) and change. */
function eventParameters(ou: Core, viewer: Viewer, operation: OfferingUserOperation, replaced: OfferingUserState, clearsComments: boolean, ipAddress: string | undefined, now: Date) {
  const rule = ruleFor(operation);
  const clearedFields = clearsComments ? (["service_provider_comment", "service_provider_comment_url"] as const).filter((field) => ou[field] !== "") : [];
  const context = {
    offering_user_uuid: hex(ou.id),
    offering_uuid: hex(ou.offering_id),
    offering_name: ou.offering_name,
    customer_uuid: hex(ou.customer_id),
    affected_user_uuid: hex(ou.user_id),
    affected_user_username: ou.user_username,
    state: stateLabel(rule.to),
    ...(replaced !== rule.to ? { old_state: stateLabel(replaced), new_state: stateLabel(rule.to) } : {}),
    operation,
    ...(clearedFields.length ? { changed_fields: clearedFields, new_service_provider_comment: "", new_service_provider_comment_url: "" } : {}),
    user_uuid: hex(viewer.id),
    user_username: viewer.username,
    ip_address: ipAddress ?? null,
  };
  const payload = { offeringUserId: ou.id, offeringId: ou.offering_id, providerCustomerId: ou.customer_id, state: rule.to, previousState: replaced };
  const scopes = new Map(
    [
      ["OFFERING_USER", ou.id],
      ["OFFERING", ou.offering_id],
      ["CUSTOMER", ou.customer_id],
      ["USER", ou.user_id],
      ["USER", viewer.id],
    ].map(([type, id]) => [`${type}:${id}`, { type, id }]),
  );
  const eventType = rule.effect?.eventType ?? "marketplace_offering_user_updated";
  const message = `Offering user ${ou.user_username} in offering ${ou.offering_name} has been moved from ${stateLabel(replaced)} to ${stateLabel(rule.to)}.`;
  const change = { topic: "offeringUserChanged", payload };
  return [randomUUID(), now, eventType, message, JSON.stringify(context), JSON.stringify(change), [...scopes.values()].map((s) => s.type), [...scopes.values()].map((s) => s.id)];
}

/**
 * The floor of an offering-user transition (POST /api/marketplace-offering-users/<uuid>/<operation>/), with pg and
 * no framework, doing what the gateway's transitionOfferingUser must: read the record and whether the viewer may
 * manage its offering (staff may; anyone else needs an active grant of a role with UPDATE_OFFERING_USER on the
 * offering or its customer, in the same statement), then one transaction: a compare-and-swap UPDATE of the state from
 * the state read (re-read and retried on a lost race, as swapFromObserved does) and the audit event with its scopes in
 * one data-modifying CTE, as src/events/record.ts writes them. It answers as the REST route does: 200 with no body,
 * 400 with Waldur's message when the state does not allow the operation, 403, 404.
 * Operations that store a comment (they read a body) are not served.
 */
export async function transition(pool: pg.Pool, viewer: Viewer, uuid: string, operation: OfferingUserOperation, ipAddress: string | undefined): Promise<Answer> {
  const rule = ruleFor(operation);
  const found = (await pool.query<Core>(named(CORE_SQL, [uuid, viewer.is_staff, viewer.id, MANAGING_ROLES]))).rows[0];
  if (!found) return { status: 404, body: { detail: "Not found." } };
  if (!found.may_manage) return { status: 403, body: { detail: "You do not have permission to perform this action." } };
  if (!rule.from.includes(found.state)) return invalidTransition(operation, found.state);
  const clearsComments = rule.effect?.clearsComments === true;
  const now = new Date();
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    let current: OfferingUserState | undefined = found.state;
    for (let attempt = 0; ; attempt++) {
      if (!current) return rollback(client, { status: 404, body: { detail: "Not found." } });
      if (!rule.from.includes(current) || attempt === SWAP_ATTEMPTS) return rollback(client, invalidTransition(operation, current));
      const swapped = await client.query(named(clearsComments ? SWAP_CLEARING_COMMENTS_SQL : SWAP_SQL, [found.id, rule.to, now, current]));
      if (swapped.rowCount === 1) break;
      current = (await client.query<{ state: OfferingUserState }>(named(STATE_SQL, [found.id]))).rows[0]?.state;
    }
    await client.query(named(EVENT_SQL, eventParameters(found, viewer, operation, current, clearsComments, ipAddress, now)));
    await client.query("COMMIT");
    return { status: 200 };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function rollback(client: pg.PoolClient, answer: Answer): Promise<Answer> {
  await client.query("ROLLBACK");
  return answer;
}
