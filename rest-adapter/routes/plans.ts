import { COLLECTIONS } from "../../src/platform/collections.ts";
import type { RouteSpec } from "../route.ts";
import { retrieveRoute } from "./common.ts";

const PLANS = `/api/${COLLECTIONS.plan}`;

/** A unit outside Waldur's billing units is left out: py-client reads `unit` as a BillingUnit. */
const withoutUnknownUnit = ({ unit, ...plan }: { unit: string | null }) => (unit === null ? plan : { ...plan, unit });

export const planRoutes: RouteSpec[] = [
  {
    ...retrieveRoute(PLANS, "Retrieve a plan of an offering the caller may see (the site agent reads its quotas)", "offeringPlan", "ProviderPlanDetailsRest"),
    shape: withoutUnknownUnit,
  },
];
