import { builder } from "../graphql/builder.ts";
import { AvailableTransitionRef } from "../graphql/transitions.ts";
import { availableMaintenanceActions } from "./available-actions.ts";

builder.prismaObjectField("MaintenanceAnnouncement", "availableTransitions", (t) =>
  t.field({
    type: [AvailableTransitionRef],
    description: "The actions the announcement's state allows now, and whether the viewer may run each",
    select: { state: true, serviceProvider: { select: { customerId: true } } },
    resolve: (m, _args, ctx) => availableMaintenanceActions(ctx, m),
  }),
);
