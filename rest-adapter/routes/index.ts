import type { RouteSpec } from "../route.ts";
import { adminAnnouncementRoutes } from "./admin-announcements.ts";
import { directoryRoutes } from "./directory.ts";
import { eventRoutes } from "./events.ts";
import { maintenanceRoutes } from "./maintenance.ts";
import { offeringUserRoutes } from "./offering-users.ts";
import { orderRoutes } from "./orders.ts";
import { planRoutes } from "./plans.ts";
import { resourceRoutes } from "./resources.ts";
import { siteAgentRoutes } from "./site-agents.ts";
import { termsOfServiceRoutes } from "./terms-of-service.ts";
import { usageRoutes } from "./usage.ts";
import { sshKeyRoutes } from "./ssh-keys.ts";
import { userUsageLimitRoutes } from "./user-usage-limits.ts";
import { tokenRoutes } from "./tokens.ts";
import { eventSubscriptionRoutes } from "./event-subscriptions.ts";

/** Every documented REST path, in matching order (static segments before `:uuid`). */
export const ROUTES: RouteSpec[] = [...directoryRoutes, ...eventRoutes, ...offeringUserRoutes, ...planRoutes, ...termsOfServiceRoutes, ...orderRoutes, ...resourceRoutes, ...usageRoutes, ...userUsageLimitRoutes, ...sshKeyRoutes, ...maintenanceRoutes, ...adminAnnouncementRoutes, ...siteAgentRoutes, ...eventSubscriptionRoutes, ...tokenRoutes];
