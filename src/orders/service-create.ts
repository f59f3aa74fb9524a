import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { OrderType, Prisma, ResourceState } from "../generated/prisma/client.ts";
import { referenced } from "../directory/lookup.ts";
import { visibleOfferings, visibleProjects } from "../directory/visibility.ts";
import { fieldError, missingObject } from "../platform/errors.ts";
import { toHex } from "../platform/ids.ts";
import { maxLength } from "../platform/text.ts";
import { parseTimestamp } from "../platform/timestamps.ts";
import { transact, type Tx } from "../platform/database/transaction.ts";
import { RESOURCE_CORE, recordResourceChange } from "../resources/changes.ts";
import { reconcileResourceAccess } from "../offering-users/allocations.ts";
import { consentWithin } from "../terms-of-service/service-consents.ts";
import { nextState, waitsOf } from "./approval.ts";
import { describeOrder, followResource, ORDER_CORE, recordOrderChange } from "./changes.ts";
import { type RequestType, TERMINAL_ORDER_STATES } from "./states.ts";
import { orderStateLabel } from "../resources/order-states.ts";
import { ORDERABLE_RESOURCE_STATES } from "./transitions.ts";
import type { OrderQuery } from "./service.ts";
import { consumerScopes } from "./visibility.ts";
import { count, findFirst, findUniqueOrThrow } from "../platform/reads/sql/find.ts";

export interface CreateOrderInput {
  offering: string;
  project: string;
  /** Default CREATE; Restore orders are not made here. */
  type?: RequestType | null;
  plan?: string | null;
  /** Required for Update and Terminate orders. */
  resource?: string | null;
  attributes?: unknown;
  limits?: unknown;
  acceptingTermsOfService?: boolean | null;
  requestComment?: string | null;
  /** YYYY-MM-DD; a future date makes the approved order wait in pending-start-date. */
  startDate?: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function jsonObject(field: string, value: unknown): Prisma.InputJsonObject {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw fieldError(field, "Expected a dictionary of items.");
  return value as Prisma.InputJsonObject;
}

function validLimits(value: unknown): Prisma.InputJsonObject {
  const limits = jsonObject("limits", value);
  const bad = Object.entries(limits).find(([, amount]) => typeof amount !== "number" || !Number.isFinite(amount) || amount < 0);
  if (bad) throw fieldError("limits", `Limit of ${bad[0]} must be a non-negative number.`);
  return limits;
}

/**
 * A DRF DateField: a calendar date of years 1–9999 (Python's date range). Year 0 (PostgreSQL would reject it as the
 * whole statement) and dates JavaScript rolls over (2023-02-29 → March 1st) are the field's error like any bad format.
 */
function startDateOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? parseTimestamp(`${value}T00:00:00Z`) : null;
  if (!date || date.toISOString().slice(0, 10) !== value) {
    throw fieldError("startDate", "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.");
  }
  return date;
}

/** Update and Terminate orders: about an existing resource. */
type ChangeType = Exclude<OrderType, "CREATE">;

async function orderableResource(ctx: Context, type: ChangeType, uuid: string | null | undefined, offeringId: string, projectId: string) {
  if (!uuid) throw fieldError("resourceUuid", "This field is required.");
  const resource = await referenced("resourceUuid", uuid, (id) =>
    findFirst(ctx.db, "resource", { where: { id, offeringId, projectId }, select: { id: true, state: true } }),
  );
  assertOrderable(type, resource.state);
  return resource.id;
}

function assertOrderable(type: ChangeType, state: ResourceState) {
  if (!ORDERABLE_RESOURCE_STATES[type].includes(state)) throw fieldError("resourceUuid", "Resource is not in valid state.");
}

/**
 * One pending order per resource (Waldur): concurrent orders for one resource queue on its row lock, so the
 * state and pending-order checks and the insert are atomic. Whoever waited re-reads what the holder committed.
 */
async function lockOrderableResource(tx: Tx, type: ChangeType, resourceId: string) {
  const [locked] = await tx.$queryRaw<Array<{ state: ResourceState }>>`
    SELECT state::text AS state FROM resources WHERE id = ${resourceId}::uuid FOR UPDATE`;
  if (!locked) throw missingObject("resourceUuid");
  assertOrderable(type, locked.state);
  const pending = await count(tx, "order", { resourceId, state: { notIn: [...TERMINAL_ORDER_STATES] } });
  if (pending) throw fieldError("resourceUuid", "Pending order for resource already exists.");
}

/** With consent enforcement on and active terms, the order must accept them (Waldur's accepting_terms_of_service). */
async function termsToAccept(ctx: Context, offeringId: string, accepting: boolean | null | undefined) {
  if (!ctx.config.enforceUserConsent) return false;
  const terms = await findFirst(ctx.db, "offeringTermsOfService", { where: { offeringId, isActive: true }, select: { id: true } });
  if (!terms) return false;
  if (accepting !== true) throw fieldError("acceptingTermsOfService", "Terms of service for offering have not been accepted.");
  return true;
}

/** POST /api/marketplace-orders/: the order starts at the first approval its creator cannot give (approval.ts). */
export async function createOrder(ctx: Context, input: CreateOrderInput, query: OrderQuery = {}) {
  const viewer = ctx.requireViewer();
  const type = input.type ?? "CREATE";
  if (type === "RESTORE") throw fieldError("type", '"Restore" is not a valid choice.');
  const [offerings, projects] = await Promise.all([visibleOfferings(ctx), visibleProjects(ctx)]);
  const offering = await referenced("offeringUuid", input.offering, (id) =>
    findFirst(ctx.db, "offering", { where: { AND: [{ id }, offerings] }, select: { id: true, name: true, state: true, customerId: true, pluginOptions: true } }),
  );
  const project = await referenced("projectUuid", input.project, (id) =>
    findFirst(ctx.db, "project", { where: { AND: [{ id }, projects] }, select: { id: true, customerId: true } }),
  );
  await ctx.access.require(Permission.CREATE_ORDER, consumerScopes({ projectId: project.id, project }));
  const available = type === "CREATE" ? ["ACTIVE"] : ["ACTIVE", "PAUSED"];
  if (!available.includes(offering.state)) throw fieldError("offeringUuid", "This offering is not available for ordering.");
  const plan = input.plan
    ? await referenced("planUuid", input.plan, (id) => findFirst(ctx.db, "offeringPlan", { where: { id, offeringId: offering.id, archived: false }, select: { id: true } }))
    : null;
  const resourceId = type === "CREATE" ? null : await orderableResource(ctx, type, input.resource, offering.id, project.id);
  const attributes = jsonObject("attributes", input.attributes);
  const limits = validLimits(input.limits);
  const startDate = startDateOf(input.startDate);
  const requestComment = maxLength("requestComment", input.requestComment ?? "", 255);
  const acceptsTerms = await termsToAccept(ctx, offering.id, input.acceptingTermsOfService);
  const subject = { projectId: project.id, project, offeringId: offering.id, offering, startDate };
  const waits = await waitsOf(ctx, subject, viewer.id);
  const state = nextState(waits, null);
  const now = ctx.now();

  return transact(ctx, async (tx, outbox) => {
    // Recorded first, so the offering users this order grants see the consent (terms deactivated meanwhile: nothing to record).
    if (acceptsTerms) await consentWithin(ctx, tx, outbox, viewer.id, offering, { rejectCurrent: false });
    if (resourceId && type !== "CREATE") await lockOrderableResource(tx, type, resourceId);
    const resource = type === "CREATE"
      ? await tx.resource.create({
          data: {
            name: maxLength("attributes", typeof attributes.name === "string" ? attributes.name : "", 150),
            projectId: project.id, offeringId: offering.id, planId: plan?.id ?? null, attributes, limits, created: now,
          },
          select: RESOURCE_CORE,
        })
      : null;
    const order = await tx.order.create({
      data: {
        type, state, offeringId: offering.id, projectId: project.id, planId: plan?.id ?? null,
        resourceId: resource?.id ?? resourceId, attributes, limits, startDate, requestComment, createdById: viewer.id, created: now,
        ...(waits.consumer ? {} : { consumerReviewedById: viewer.id, consumerReviewedAt: now }),
      },
      select: ORDER_CORE,
    });
    await recordOrderChange(ctx, tx, outbox, order, {
      eventType: "marketplace_order_created",
      message: `${describeOrder(order)} has been created in ${orderStateLabel(state)}.`,
      previousState: null,
      state,
    });
    if (resource) {
      await recordResourceChange(ctx, tx, outbox, resource, {
        eventType: "marketplace_resource_create_requested",
        message: `Resource ${resource.name || toHex(resource.id)} has been requested in offering ${offering.name}.`,
        previousState: null,
        state: resource.state,
        context: { order_uuid: toHex(order.id) },
      });
      await reconcileResourceAccess(ctx, tx, outbox, resource);
    }
    await followResource(ctx, tx, outbox, order, state);
    return findUniqueOrThrow(tx, "order", { ...query, where: { id: order.id } });
  });
}
