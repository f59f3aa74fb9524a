import type { EventType } from "../events/types.ts";
import { allocationProviderScopes as providerScopes } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { ResourceState } from "../generated/prisma/client.ts";
import { notFound, wrongState } from "../platform/errors.ts";
import { canTransition, swapFromObserved } from "../platform/state-machine.ts";
import { transact } from "../platform/database/transaction.ts";
import { reconcileResourceStateChange } from "../offering-users/allocations.ts";
import { loadForProvider } from "./service-backend.ts";
import { describeResource, RESOURCE_CORE, recordResourceChange } from "./changes.ts";
import type { ResourceQuery } from "./service.ts";
import { resourceStateLabel } from "./states.ts";
import { RESOURCE_TRANSITIONS, type ResourceTransition, ResourceTransitionError } from "./transitions.ts";
import { findUnique, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export interface ResourceErrorInput {
  errorMessage?: string | null;
  errorTraceback?: string | null;
}

/** Each provider state action: its audit event, and the error it leaves on the resource. */
const EFFECTS: Record<ResourceTransition, { eventType: EventType; keepsError: boolean }> = {
  setAsOk: { eventType: "marketplace_resource_updated", keepsError: false },
  setAsErred: { eventType: "marketplace_resource_erred_on_backend", keepsError: true },
};

const refused = (from: readonly ResourceState[], current: ResourceState) =>
  wrongState(ResourceTransitionError, `Valid states for operation: ${from.map(resourceStateLabel).join(", ")}.`, current, from);

/**
 * The provider's word on a resource's state (Waldur's set_as_ok / set_as_erred): 404 outside the provider view,
 * 403 without the right, 409 from a state the transition does not leave. The state is swapped from the one last
 * seen and the audit event written in the same transaction. The error message is stored on the resource; the
 * traceback, which has no column here, goes into the event.
 */
export async function transitionResource(
  ctx: Context,
  uuid: string,
  transition: ResourceTransition,
  input: ResourceErrorInput = {},
  query?: ResourceQuery,
) {
  const resource = await loadForProvider(ctx, uuid, RESOURCE_CORE);
  // Waldur's RESOURCE.SET_STATE; here the same roles hold the backend write-back permissions.
  await ctx.access.require(Permission.SET_RESOURCE_BACKEND_METADATA, providerScopes(resource));
  const rule = RESOURCE_TRANSITIONS[transition];
  if (!canTransition(rule, resource.state)) throw refused(rule.from, resource.state);
  const effect = EFFECTS[transition];
  const errorMessage = effect.keepsError ? (input.errorMessage ?? "") : "";
  const changed = await transact(ctx, async (tx, outbox) => {
    const replaced = await swapFromObserved(
      rule,
      resource.state,
      (from) => tx.resource.updateMany({ where: { id: resource.id, state: from }, data: { state: rule.to, errorMessage } }),
      async () => (await findUnique(tx, "resource", { where: { id: resource.id }, select: { state: true } }))?.state ?? null,
      { invalid: (current) => refused(rule.from, current), missing: notFound },
    );
    await recordResourceChange(ctx, tx, outbox, resource, {
      eventType: effect.eventType,
      message: `Resource ${describeResource(resource)} has been moved from ${resourceStateLabel(replaced)} to ${resourceStateLabel(rule.to)}.`,
      previousState: replaced,
      state: rule.to,
      context: effect.keepsError ? { error_message: errorMessage, error_traceback: input.errorTraceback ?? "" } : {},
    });
    await reconcileResourceStateChange(ctx, tx, outbox, resource, replaced, rule.to);
    return query && findUniqueOrThrow(tx, "resource", { ...query, where: { id: resource.id } });
  });
  return { resourceId: resource.id, state: rule.to, resource: changed };
}
