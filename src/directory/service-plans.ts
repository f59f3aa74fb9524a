import type { Context } from "../context.ts";
import type { OfferingPlan, Prisma } from "../generated/prisma/client.ts";
import { visibleOne } from "./lookup.ts";
import { visibleOfferings } from "./visibility.ts";
import { findFirst } from "../platform/reads/sql/find.ts";

export type OfferingPlanQuery = { select?: Prisma.OfferingPlanSelect; include?: Prisma.OfferingPlanInclude };

/** A plan is seen with its offering (Waldur's marketplace-plans: the plans of the offerings the caller may see). */
export async function getPlan(ctx: Context, uuid: string, query: OfferingPlanQuery = {}) {
  const offering = await visibleOfferings(ctx);
  return visibleOne(uuid, (id) => findFirst(ctx.db, "offeringPlan", { ...query, where: { id, offering } }));
}

/*
 * Waldur prices a plan by its plan components (a price and an amount per offering component); here a plan has one
 * price, `unitPrice` per `unit`, and no plan components. So its components, prices and quotas are empty, and the
 * unit price is what Waldur's fixed components would add up to (Waldur's unit_price is exactly that sum).
 */

/** Waldur's plan_type: "fixed" when the plan has a price; "" when it has none (Waldur: null; py-client wants a string). */
export const planType = (plan: Pick<OfferingPlan, "unitPrice">) => (plan.unitPrice.isZero() ? "" : "fixed");

/** Waldur's minimal_price: the sum of the fixed prices, here the unit price. */
export const minimalPrice = (plan: Pick<OfferingPlan, "unitPrice">) => plan.unitPrice.toFixed(10);

/** Waldur's plan billing units (BillingUnit); a plan's unit outside them is shown as none. */
const BILLING_UNITS: readonly string[] = ["day", "half_month", "hour", "month", "quantity", "quarter"];

/** The plan's unit when it is one of Waldur's billing units (BillingUnit), else null. */
export const billingUnit = (plan: Pick<OfferingPlan, "unit">) => (BILLING_UNITS.includes(plan.unit) ? plan.unit : null);
