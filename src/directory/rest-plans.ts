import { COLLECTIONS } from "../collections/rest-paths.ts";
import type { RouteSpec } from "../../rest-adapter/route.ts";
import { retrieveRoute } from "../../rest-adapter/common-routes.ts";
import { type RestSurface, restFragment } from "../../rest-adapter/surface.ts";

const PROVIDER_PLAN_DETAILS_REST_FRAGMENT = restFragment(
  "ProviderPlanDetailsRest",
  "OfferingPlan",
  `url uuid name is_active: isActive init_price: initPrice switch_price: switchPrice organization_groups: organizationGroups
   components offering: offeringUrl prices future_prices: futurePrices quotas resources_count: resourcesCount
   plan_type: planType minimal_price: minimalPrice archived unit_price: unitPrice unit: billingUnit`,
);

const PLANS = `/api/${COLLECTIONS.plan}`;

/** A unit outside Waldur's billing units is left out: py-client reads `unit` as a BillingUnit. */
const withoutUnknownUnit = ({ unit, ...plan }: { unit: string | null }) => (unit === null ? plan : { ...plan, unit });

const planRoutes: RouteSpec[] = [
  {
    ...retrieveRoute(PLANS, "Retrieve a plan of an offering the caller may see (the site agent reads its quotas)", "offeringPlan", "ProviderPlanDetailsRest"),
    shape: withoutUnknownUnit,
  },
];

export const planRest: RestSurface = { routes: planRoutes, fragments: [PROVIDER_PLAN_DETAILS_REST_FRAGMENT] };
