import type { Context } from "../context.ts";
import type { MaintenanceState } from "../generated/prisma/client.ts";
import { canTransition } from "../platform/state-machine.ts";
import { availableTransition } from "../graphql/transitions.ts";
import { MAINTENANCE_ACTIONS, maintenanceRule } from "./transitions.ts";
import { canManageProvider } from "./visibility.ts";

/** The actions the announcement's state allows now, and whether the viewer may run them (its provider's managers). */
export async function availableMaintenanceActions(ctx: Context, m: { state: MaintenanceState; serviceProvider: { customerId: string } }) {
  const permitted = await canManageProvider(ctx, m.serviceProvider.customerId);
  return MAINTENANCE_ACTIONS.filter((action) => canTransition(maintenanceRule(action), m.state)).map((action) =>
    availableTransition(action, maintenanceRule(action), permitted),
  );
}
