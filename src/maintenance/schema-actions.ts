import { builder } from "../graphql/builder.ts";
import { transitionFailure } from "../graphql/errors.ts";
import { availableTransitionType } from "../graphql/transitions.ts";
import { MaintenanceStateEnum } from "./schema-types.ts";
import { MaintenanceTransitionError } from "./transitions.ts";
import { availableMaintenanceActions } from "./available-actions.ts";

transitionFailure(MaintenanceTransitionError, "Maintenance", MaintenanceStateEnum);
const MaintenanceAvailableTransitionRef = availableTransitionType("Maintenance", MaintenanceStateEnum);

builder.prismaObjectField("MaintenanceAnnouncement", "availableTransitions", (t) =>
  t.field({
    type: [MaintenanceAvailableTransitionRef],
    description: "The actions the announcement's state allows now, and whether the viewer may run each",
    select: { state: true, serviceProvider: { select: { customerId: true } } },
    resolve: (m, _args, ctx) => availableMaintenanceActions(ctx, m),
  }),
);
