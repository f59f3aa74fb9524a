import { allocationProviderScopes as providerScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import { recordEvent, allocationEventParts } from "../events/record.ts";
import { conflict, invalid } from "../platform/errors.ts";
import { parseUuid, toHex } from "../platform/ids.ts";
import { transact } from "../platform/database/transaction.ts";
import { loadForProvider } from "./service-backend.ts";
import { describeResource, RESOURCE_CORE } from "./changes.ts";
import { findFirst, findMany } from "../platform/reads/sql/find.ts";

const SCOPE_TYPES = ["resource", "resource_project"] as const;
const SYNC_STATES = ["synced", "pending", "missing_in_idp", "error"] as const;
const EVENT_TYPE = "marketplace_resource_membership_sync_reported";

export interface MemberSyncEntry {
  scope_type: (typeof SCOPE_TYPES)[number];
  role_name: string;
  state: (typeof SYNC_STATES)[number];
  username?: string;
  user_uuid?: string;
  resource_project_uuid?: string;
  message: string;
}

const oneOf = <T extends string>(values: readonly T[], value: unknown): value is T => values.includes(value as T);

/** DRF's checks of MemberSyncStatusReportRequest: errors keyed `statuses` → entry index → field. */
function readEntries(statuses: unknown): MemberSyncEntry[] {
  if (!Array.isArray(statuses)) throw invalid({ statuses: ['Expected a list of items but got type "dict".'] });
  const problems: string[] = [];
  const entries = statuses.map((raw: unknown, i): MemberSyncEntry => {
    const entry = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
    const text = (name: string) => (typeof entry[name] === "string" ? (entry[name] as string) : undefined);
    if (!oneOf(SCOPE_TYPES, entry.scope_type)) problems.push(`statuses[${i}].scope_type: "${String(entry.scope_type)}" is not a valid choice.`);
    if (!oneOf(SYNC_STATES, entry.state)) problems.push(`statuses[${i}].state: "${String(entry.state)}" is not a valid choice.`);
    if (!text("role_name")) problems.push(`statuses[${i}].role_name: This field is required.`);
    if (!text("username") && !parseUuid(entry.user_uuid)) problems.push(`statuses[${i}]: Either username or user_uuid is required.`);
    return {
      scope_type: entry.scope_type as MemberSyncEntry["scope_type"],
      role_name: text("role_name") ?? "",
      state: entry.state as MemberSyncEntry["state"],
      username: text("username"),
      user_uuid: parseUuid(entry.user_uuid) ?? undefined,
      resource_project_uuid: text("resource_project_uuid"),
      message: text("message") ?? "",
    };
  });
  if (problems.length) throw invalid({ statuses: problems });
  return entries;
}

interface StoredStatus {
  user_uuid: string;
  username: string;
  role_name: string;
  state: string;
  message: string;
}

/** Reports compare field by field: the database keeps JSON keys in its own order. */
const fingerprint = (statuses: StoredStatus[]) => JSON.stringify(statuses.map((s) => [s.user_uuid, s.username, s.role_name, s.state, s.message]));
const sameReport = (previous: unknown, next: StoredStatus[]) => Array.isArray(previous) && fingerprint(previous) === fingerprint(next);

/**
 * Waldur's set_membership_sync_statuses: the site agent's full report of how each role grant reached its backend.
 * Only for offerings that opt in (`enable_membership_sync_status`, else 409). Members are resolved by username or
 * user uuid; entries that resolve to no user — and every `resource_project` entry, since resource sub-projects do
 * not exist here — are skipped and echoed back. There is no status table: a report that differs from the last one
 * is kept as an audit event of the resource (the previous report is the latest such event).
 */
export async function setMembershipSyncStatuses(ctx: Context, uuid: string, statuses: unknown) {
  const resource = await loadForProvider(ctx, uuid, { ...RESOURCE_CORE, offering: { select: { name: true, customerId: true, pluginOptions: true } } });
  await ctx.access.require(Permission.SET_RESOURCE_BACKEND_METADATA, providerScopes(resource));
  const options = resource.offering.pluginOptions as Record<string, unknown> | null;
  if (!options?.enable_membership_sync_status) throw conflict("Membership sync status is not enabled for this offering.");
  const entries = readEntries(statuses);
  const users = await findMany(ctx.db, "user", {
    where: {
      OR: [
        { username: { in: entries.flatMap((e) => (e.username ? [e.username] : [])) } },
        { id: { in: entries.flatMap((e) => (e.user_uuid ? [e.user_uuid] : [])) } },
      ],
    },
    select: { id: true, username: true },
  });
  const userOf = (e: MemberSyncEntry) => users.find((u) => (e.username ? u.username === e.username : u.id === e.user_uuid));
  const stored = entries.flatMap((e): StoredStatus[] => {
    const user = userOf(e);
    return user && e.scope_type === "resource" ? [{ user_uuid: toHex(user.id), username: user.username, role_name: e.role_name, state: e.state, message: e.message }] : [];
  });
  const skipped = entries.filter((e) => !(userOf(e) && e.scope_type === "resource")).map((e) => e.username ?? e.user_uuid ?? "");
  const previous = await findFirst(ctx.db, "event", {
    where: { eventType: EVENT_TYPE, scopes: { some: { scopeType: "RESOURCE", scopeId: resource.id } } },
    orderBy: { id: "desc" },
    select: { context: true },
  });
  const previousStatuses = (previous?.context as { statuses?: unknown } | null)?.statuses;
  if (!sameReport(previousStatuses, stored)) {
    await transact(ctx, async (tx, outbox) => {
      const allocation = allocationEventParts(resource);
      await recordEvent(ctx, tx, outbox, {
        type: EVENT_TYPE,
        message: `Membership sync statuses of resource ${describeResource(resource)} have been reported.`,
        context: { resource_uuid: toHex(resource.id), resource_name: resource.name, ...allocation.context, statuses: stored },
        scopes: [{ type: "RESOURCE", id: resource.id }, ...allocation.scopes],
      });
    });
  }
  return { stored: stored.length, skipped };
}
