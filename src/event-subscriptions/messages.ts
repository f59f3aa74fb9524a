import type { EventSpec } from "../events/spec.ts";
import type { EventType } from "../events/types.ts";
import { grantsInForce } from "../directory/grants-in-force.ts";
import { orderStateLabel } from "../resources/order-states.ts";
import { ALLOCATIONS } from "../offering-users/allocated-resources.ts";
import { parseUuid, toHex } from "../platform/ids.ts";
import type { Tx } from "../platform/database/transaction.ts";
import type { PublishedObjectType } from "./object-types.ts";
import { findMany } from "../platform/reads/sql/find.ts";

/** One message for the agents of one offering; each subscriber's copy gets `offering_uuid` (and `object_type`). */
export interface AgentMessage {
  objectType: PublishedObjectType;
  /** The offering and its provider (whose side hears of it). */
  offering: { id: string; customerId: string };
  payload: Record<string, unknown>;
}

type MessagesOf = (event: EventSpec, tx: Tx, now: Date) => Promise<AgentMessage[]>;

const text = (value: unknown) => (typeof value === "string" ? value : "");
const idIn = (context: Record<string, unknown>, key: string) => parseUuid(context[key]);

/** Every order change: created and each transition (current Waldur); the agent skips the states it does not act on. */
const orderMessages: MessagesOf = async (event) => {
  const change = event.change;
  if (change?.topic !== "orderChanged" || !change.payload.state) return [];
  const { orderId, offeringId, providerCustomerId, state } = change.payload;
  const offering = { id: offeringId, customerId: providerCustomerId };
  return [{ objectType: "order", offering, payload: { order_uuid: toHex(orderId), order_state: orderStateLabel(state) } }];
};

/** A project role granted or revoked: one message per offering with a live allocation (ALLOCATIONS) in the project. */
const roleMessages =
  (granted: boolean): MessagesOf =>
  async (event, tx) => {
    const { context } = event;
    const projectId = idIn(context, "scope_uuid");
    if (context.scope_type !== "PROJECT" || !projectId) return [];
    const resources = await findMany(tx, "resource", {
      where: { AND: [{ projectId }, ALLOCATIONS] },
      select: { offeringId: true, offering: { select: { customerId: true } }, project: { select: { name: true } } },
      distinct: ["offeringId"],
    });
    return resources.map((resource) => ({
      objectType: "user_role",
      offering: { id: resource.offeringId, customerId: resource.offering.customerId },
      payload: {
        user_uuid: text(context.affected_user_uuid),
        user_username: text(context.affected_user_username),
        project_uuid: toHex(projectId),
        project_name: resource.project.name,
        role_name: text(context.role_name),
        granted,
      },
    }));
  };

/** The backend ids of the user's resources of the offering (not terminated) in projects where they hold a role. */
async function backendIdsOf(tx: Tx, now: Date, userId: string, offeringId: string) {
  const grants = await findMany(tx, "roleGrant", { where: { ...grantsInForce(now, "PROJECT"), userId }, select: { scopeId: true } });
  const resources = await findMany(tx, "resource", {
    where: { offeringId, projectId: { in: grants.map((g) => g.scopeId) }, state: { not: "TERMINATED" }, backendId: { not: "" } },
    select: { backendId: true },
    orderBy: { created: "asc" },
  });
  return resources.map((r) => r.backendId);
}

type OfferingUserAction = "create" | "update" | "delete";

/** `offering_user` messages: create, update (with what changed), delete, and `username_set` when a username arrives. */
const offeringUserMessages =
  (action: OfferingUserAction, changedFields: (context: Record<string, unknown>) => string[] = () => []): MessagesOf =>
  async (event, tx, now) => {
    const change = event.change;
    if (change?.topic !== "offeringUserChanged") return [];
    const { context } = event;
    const { offeringUserId, offeringId, providerCustomerId } = change.payload;
    const offering = { id: offeringId, customerId: providerCustomerId };
    const userUuid = text(context.affected_user_uuid);
    const base = { offering_user_uuid: toHex(offeringUserId), user_uuid: userUuid };
    const newUsername = text(context.new_username);
    const userId = parseUuid(userUuid);
    if (action === "update" && newUsername && userId) {
      const backendIds = await backendIdsOf(tx, now, userId, offeringId);
      const payload = { ...base, username: newUsername, state: text(context.state), action: "username_set", resource_backend_ids: backendIds };
      return [{ objectType: "offering_user", offering, payload }];
    }
    const username = text(context.new_username ?? context.username) || null;
    const payloads: Record<OfferingUserAction, Record<string, unknown>> = {
      create: { ...base, username, state: text(context.state), runtime_state: "", action, attributes: {} },
      update: { ...base, username, state: text(context.state), runtime_state: "", action, changed_fields: changedFields(context), attributes: {} },
      delete: { ...base, username, action },
    };
    return [{ objectType: "offering_user", offering, payload: payloads[action] }];
  };

/** What an update changed, as Waldur's field names: the state, the comments, the username. */
const changedOfferingUserFields = (context: Record<string, unknown>) =>
  [
    context.new_state !== undefined && "state",
    "old_username" in context && "username",
    "service_provider_comment" in context && "service_provider_comment",
    "service_provider_comment_url" in context && "service_provider_comment_url",
  ].filter((field): field is string => typeof field === "string");

/** Which events the site agents hear of, and as what. */
export const AGENT_MESSAGES: Partial<Record<EventType, MessagesOf>> = {
  marketplace_order_created: orderMessages,
  marketplace_order_approved: orderMessages,
  marketplace_order_rejected: orderMessages,
  marketplace_order_canceled: orderMessages,
  marketplace_order_updated: orderMessages,
  marketplace_order_completed: orderMessages,
  marketplace_order_failed: orderMessages,
  role_granted: roleMessages(true),
  role_revoked: roleMessages(false),
  marketplace_offering_user_created: offeringUserMessages("create"),
  marketplace_offering_user_updated: offeringUserMessages("update", changedOfferingUserFields),
  marketplace_offering_user_restriction_updated: offeringUserMessages("update", () => ["is_restricted"]),
  marketplace_offering_user_deleted: offeringUserMessages("delete"),
};
