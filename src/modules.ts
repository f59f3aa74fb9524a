import { joinSurfaces, type RestSurface } from "../rest-adapter/surface.ts";
import { directoryRest } from "./directory/rest.ts";
import { planRest } from "./directory/rest-plans.ts";
import { eventRest } from "./events/rest.ts";
import { eventSubscriptionRest } from "./event-subscriptions/rest.ts";
import { adminAnnouncementRest } from "./maintenance/rest-admin-announcements.ts";
import { maintenanceRest } from "./maintenance/rest.ts";
import { offeringUserRest } from "./offering-users/rest.ts";
import { orderRest } from "./orders/rest.ts";
import { resourceRest } from "./resources/rest.ts";
import { siteAgentRest } from "./site-agents/rest.ts";
import { sshKeyRest } from "./ssh-keys/rest.ts";
import { termsOfServiceRest } from "./terms-of-service/rest.ts";
import { tokenRest } from "./tokens/rest.ts";
import { userUsageLimitRest } from "./usage/rest-user-limits.ts";
import { usageRest } from "./usage/rest.ts";

/**
 * The domains' REST surfaces, in matching order (static segments before `:uuid`): every documented REST path and the
 * serializers they spread, which the composition root (src/app.ts) mounts on the engine (rest-adapter/).
 */
export const REST_API: RestSurface = joinSurfaces([
  directoryRest,
  eventRest,
  offeringUserRest,
  planRest,
  termsOfServiceRest,
  orderRest,
  resourceRest,
  usageRest,
  userUsageLimitRest,
  sshKeyRest,
  maintenanceRest,
  adminAnnouncementRest,
  siteAgentRest,
  eventSubscriptionRest,
  tokenRest,
]);
