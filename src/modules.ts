import { joinSurfaces, type RestSurface } from "../rest-adapter/surface.ts";
import type { TallyTable } from "./platform/database/tallies.ts";
import { directoryModule } from "./directory/module.ts";
import { eventsModule } from "./events/module.ts";
import { offeringUsersModule } from "./offering-users/module.ts";
import { termsOfServiceModule } from "./terms-of-service/module.ts";
import { ordersModule } from "./orders/module.ts";
import { resourcesModule } from "./resources/module.ts";
import { usageModule } from "./usage/module.ts";
import { sshKeysModule } from "./ssh-keys/module.ts";
import { maintenanceModule } from "./maintenance/module.ts";
import { siteAgentsModule } from "./site-agents/module.ts";
import { eventSubscriptionsModule } from "./event-subscriptions/module.ts";
import { tokensModule } from "./tokens/module.ts";

/**
 * The domains (src/<domain>/module.ts), in the matching order of their REST routes (static segments before `:uuid`).
 * Importing this list registers every domain's GraphQL types and fields (src/schema.ts builds the two graphs from
 * them); the REST surface and the tally tables below derive from it.
 */
export const DOMAIN_MODULES = [
  directoryModule,
  eventsModule,
  offeringUsersModule,
  termsOfServiceModule,
  ordersModule,
  resourcesModule,
  usageModule,
  sshKeysModule,
  maintenanceModule,
  siteAgentsModule,
  eventSubscriptionsModule,
  tokensModule,
] as const;

/**
 * Every documented REST path and the serializers they spread, which the composition root (src/app.ts) mounts on the
 * engine (rest-adapter/).
 */
export const REST_API: RestSurface = joinSurfaces(DOMAIN_MODULES.flatMap((module) => module.rest));

/** Every tally table (src/platform/database/tallies.ts): the gateway folds them, the tests and the bench read their totals. */
export const TALLY_TABLES = DOMAIN_MODULES.flatMap<TallyTable<unknown>>((module) => module.tallies);
