import { offeringProviderScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import { requireStaff, visibleOne } from "../directory/lookup.ts";
import { getOffering } from "../directory/service-offerings.ts";
import { ALLOCATIONS } from "../offering-users/allocated-resources.ts";
import { conflict } from "../platform/errors.ts";
import { toHex } from "../platform/ids.ts";
import { transact } from "../platform/database/transaction.ts";
import { sendToAgents } from "./fan-out.ts";
import type { AgentMessage } from "./messages.ts";
import { findMany, findUnique } from "../platform/reads/sql/find.ts";

/** Writes the messages in a transaction of their own and wakes the relay; answers how many copies were queued. */
const send = (ctx: Context, messages: AgentMessage[]) => transact(ctx, (tx, outbox) => sendToAgents(ctx, tx, outbox, messages));

/**
 * Waldur's `sync_resources`: asks the offering's agents for a full resync (`offering_resources_sync`). Refused (409)
 * when the offering is not active or no agent on its provider side listens for it.
 */
export async function requestOfferingResourcesSync(ctx: Context, offeringUuid: string) {
  const viewer = ctx.requireViewer();
  const offering = await getOffering(ctx, offeringUuid, { select: { id: true, customerId: true, state: true } });
  await ctx.access.require(Permission.UPDATE_OFFERING, offeringProviderScopes(offering));
  if (offering.state !== "ACTIVE") throw conflict("Offering is not active.");
  const message: AgentMessage = { objectType: "offering_resources_sync", offering, payload: { requested_by_user_uuid: toHex(viewer.id) } };
  if (!(await send(ctx, [message]))) throw conflict("No site agent is subscribed to resource synchronisation of this offering.");
  return { status: "Resource synchronisation has been requested." };
}

/** Waldur's staff-only `sync_user_roles` of a project: a project-wide `user_role` message for each of its offerings. */
export async function requestProjectUserRolesSync(ctx: Context, projectUuid: string) {
  requireStaff(ctx);
  const project = await visibleOne(projectUuid, (id) => findUnique(ctx.db, "project", { where: { id }, select: { id: true, name: true } }));
  const resources = await findMany(ctx.db, "resource", {
    where: { AND: [{ projectId: project.id }, ALLOCATIONS] },
    select: { offeringId: true, offering: { select: { customerId: true } } },
    distinct: ["offeringId"],
  });
  const payload = { project_uuid: toHex(project.id), project_name: project.name };
  await send(ctx, resources.map((r) => ({ objectType: "user_role", offering: { id: r.offeringId, customerId: r.offering.customerId }, payload })));
  return { status: "User role synchronisation has been requested." };
}
