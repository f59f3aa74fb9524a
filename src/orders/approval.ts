import { Access } from "../auth/access.ts";
import { Permission } from "../auth/permissions.ts";
import type { Context } from "../context.ts";
import type { OrderState } from "../generated/prisma/client.ts";
import { consumerScopes, providerScopes } from "./visibility.ts";
import { findUnique } from "../platform/reads/sql/find.ts";

/** The body of a successful approve_by_consumer / approve_by_provider, by the state the order moved to. */
export const APPROVAL_DETAILS: Partial<Record<OrderState, string>> = {
  PENDING_PROJECT: "Order is pending project activation.",
  PENDING_PROVIDER: "Order is pending provider approval.",
  PENDING_START_DATE: "Order is pending start date.",
  EXECUTING: "Order has been approved and is being processed.",
};

export interface ApprovalSubject {
  projectId: string;
  project: { customerId: string };
  offeringId: string;
  offering: { customerId: string; pluginOptions: unknown };
  startDate: Date | null;
}

/** Which waits an order still has ahead of it, in Waldur's order. */
type Step = "consumer" | "provider" | "startDate";
const STEPS: Array<[Step, OrderState]> = [
  ["consumer", "PENDING_CONSUMER"],
  ["provider", "PENDING_PROVIDER"],
  ["startDate", "PENDING_START_DATE"],
];
export type Waits = Record<Step, boolean>;

/** The access of the order's creator: approvals are skipped by what the creator may do, not the approver. */
async function creatorAccess(ctx: Context, createdById: string | null): Promise<Access | null> {
  if (!createdById) return null;
  if (ctx.viewer?.id === createdById) return ctx.access;
  const user = await findUnique(ctx.db, "user", { where: { id: createdById }, select: { id: true, username: true, isStaff: true, isSupport: true } });
  return user ? new Access(ctx.db, user, ctx.now) : null;
}

/**
 * Consumer approval is skipped when the creator holds APPROVE_ORDER on the project or its customer; provider
 * approval when the offering auto-approves (`plugin_options.auto_approve_remote_orders`) or the creator holds
 * APPROVE_ORDER on the offering or its customer; the start-date wait when there is no future start date.
 */
export async function waitsOf(ctx: Context, order: ApprovalSubject, createdById: string | null): Promise<Waits> {
  const creator = await creatorAccess(ctx, createdById);
  const options = (order.offering.pluginOptions ?? {}) as Record<string, unknown>;
  const [consumerApproves, providerApproves] = await Promise.all([
    creator?.can(Permission.APPROVE_ORDER, consumerScopes(order)) ?? false,
    creator?.can(Permission.APPROVE_ORDER, providerScopes(order)) ?? false,
  ]);
  return {
    consumer: !consumerApproves,
    provider: !(options.auto_approve_remote_orders === true || providerApproves),
    startDate: order.startDate !== null && order.startDate.getTime() > ctx.now().getTime(),
  };
}

/** The first wait still ahead after `done` (the approval just given), or executing when none is. */
export function nextState(waits: Waits, done: Step | null): OrderState {
  const ahead = done ? STEPS.slice(STEPS.findIndex(([step]) => step === done) + 1) : STEPS;
  return ahead.find(([step]) => waits[step])?.[1] ?? "EXECUTING";
}
