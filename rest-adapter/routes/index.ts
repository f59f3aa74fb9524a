import type { RouteSpec } from "../route.ts";
import { directoryRoutes } from "./directory.ts";
import { eventRoutes } from "./events.ts";
import { offeringUserRoutes } from "./offering-users.ts";
import { termsOfServiceRoutes } from "./terms-of-service.ts";

/** Every documented REST path, in matching order (static segments before `:uuid`). */
export const ROUTES: RouteSpec[] = [...directoryRoutes, ...eventRoutes, ...offeringUserRoutes, ...termsOfServiceRoutes];
