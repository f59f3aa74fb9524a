import { byAllocation } from "../directory/allocation-filters.ts";
import { byOffering } from "../directory/offering-filters.ts";
import { grantsOf } from "../auth/grants.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { OrderState, Prisma } from "../generated/prisma/client.ts";
import { absentFlag, choiceFilter, defineContract, type Narrowing, postgresNulls, valuesByLabel } from "../collections/contract.ts";
import { parseUuid } from "../platform/ids.ts";
import { icontains } from "../platform/reads/text-match.ts";
import { byTimestamps } from "../collections/timestamp-filters.ts";
import { REQUEST_TYPE_LABELS, type RequestType } from "./states.ts";
import { ORDER_STATE_LABELS } from "../resources/order-states.ts";
import { rolesWith } from "./visibility.ts";

/** What no order here has (categories, parent offerings, order slugs, auto-approval rules). */
const NOTHING: Prisma.OrderWhereInput = { id: { in: [] } };

/** Waldur's OrderFilter: can_approve_as_* keep the orders awaiting that side, and with `true` those the viewer may approve. */
const awaitingApproval =
  (state: OrderState, mayApprove: (ctx: Context) => Promise<Prisma.OrderWhereInput>) =>
  (value: boolean): Narrowing<Prisma.OrderWhereInput, Context> =>
    value
      ? async (ctx) => ({ AND: [{ state }, ctx.viewer?.isStaff ? {} : await mayApprove(ctx)] })
      : { state };

const approverScopes = (ctx: Context, type: "CUSTOMER" | "PROJECT") => ctx.access.scopeIds(type, rolesWith(Permission.APPROVE_ORDER));

/** Offerings on which one of `userIds` holds a role (Waldur's service manager); every offering here is shared. */
async function managedOfferings(ctx: Context, userIds: string[]): Promise<Prisma.OrderWhereInput> {
  const grants = (await Promise.all(userIds.map((id) => grantsOf(ctx.db, id, ctx.now())))).flat();
  return { offeringId: { in: grants.filter((g) => g.scopeType === "OFFERING").map((g) => g.scopeId) } };
}

export const ORDER_CONTRACT = defineContract<Prisma.OrderWhereInput, Prisma.OrderOrderByWithRelationInput, Context>()({
  filters: {
    ...byOffering((offering) => ({ offering }), NOTHING),
    ...byAllocation(NOTHING),
    state: choiceFilter({
      rest: "state",
      labels: valuesByLabel(ORDER_STATE_LABELS),
      enumName: "OrderState",
      description: "Any of these states",
      where: (states) => ({ state: { in: states } }),
    }),
    type: choiceFilter<RequestType, Prisma.OrderWhereInput, Context>({
      rest: "type",
      labels: valuesByLabel(REQUEST_TYPE_LABELS),
      enumName: "OrderType",
      description: "Any of these types (no order here is a Restore)",
      where: (types) => ({ type: { in: types.filter((type) => type !== "RESTORE") } }),
    }),
    offeringType: { kind: "texts", rest: "offering_type", where: (types) => ({ offering: { type: { in: types } } }) },
    serviceManagerUuid: {
      kind: "uuids",
      rest: { service_manager_uuid: "uuid" },
      description: "Orders for offerings on which this user holds a role",
      where: (ids) => (ctx) => managedOfferings(ctx, ids),
    },
    resourceUuid: {
      kind: "uuids",
      rest: { resource_uuid: "uuid", resource: { url: "providerResource" } },
      where: (ids) => ({ resourceId: { in: ids } }),
    },
    resourceName: {
      kind: "text",
      rest: "resource_name",
      description: "Case-insensitive substring",
      where: (name) => ({ resource: { name: icontains(name) } }),
    },
    query: {
      kind: "text",
      rest: "query",
      description: "The order's uuid, or a case-insensitive substring of its project's or resource's name",
      where: (text) => {
        const id = parseUuid(text.trim());
        const contains = icontains(text);
        return { OR: [...(id ? [{ id }] : []), { project: { name: contains } }, { resource: { name: contains } }] };
      },
    },
    slug: { kind: "text", rest: "slug", description: "Orders have no slug here: matches nothing", where: () => NOTHING },
    ...byTimestamps(),
    canApproveAsConsumer: {
      kind: "boolean",
      rest: "can_approve_as_consumer",
      description: "Pending-consumer orders; with true, those the viewer may approve (staff: all)",
      where: awaitingApproval("PENDING_CONSUMER", async (ctx) => {
        const [customers, projects] = await Promise.all([approverScopes(ctx, "CUSTOMER"), approverScopes(ctx, "PROJECT")]);
        return { OR: [{ project: { customerId: { in: customers } } }, { projectId: { in: projects } }] };
      }),
    },
    canApproveAsProvider: {
      kind: "boolean",
      rest: "can_approve_as_provider",
      description: "Pending-provider orders; with true, those whose provider organisation the viewer may approve for (staff: all)",
      where: awaitingApproval("PENDING_PROVIDER", async (ctx) => ({
        offering: { customerId: { in: await approverScopes(ctx, "CUSTOMER") } },
      })),
    },
    wasAutoApproved: {
      kind: "boolean",
      rest: "was_auto_approved",
      description: "No order here is approved by an auto-approval rule: true matches nothing, false everything",
      where: absentFlag(NOTHING),
    },
  },
  orderings: {
    created: (direction) => ({ created: direction }),
    consumer_reviewed_at: (direction) => ({ consumerReviewedAt: postgresNulls(direction) }),
    /** The cost is the plan's price (no component is priced here); orders without a plan have none. */
    cost: (direction) => ({ plan: { unitPrice: direction } }),
    state: (direction) => ({ state: direction }),
  },
  defaultOrder: ["-created"],
  tiebreak: [{ id: "asc" }],
});
