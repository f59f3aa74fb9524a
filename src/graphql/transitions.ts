import type { EnumRef } from "@pothos/core";
import { builder, type Types } from "./builder.ts";

/** One action a state machine allows from a record's present state. */
export interface AvailableTransition {
  operation: string;
  mutation: string;
  to: string;
  permitted: boolean;
}

const AvailableTransitionInterface = builder.interfaceRef<AvailableTransition>("AvailableTransition").implement({
  description: "An action the record's state allows now, and whether the viewer may run it",
  fields: (t) => ({
    operation: t.exposeString("operation", { description: "Waldur's name of the action (the REST path's last segment)" }),
    mutation: t.exposeString("mutation", { description: "The GraphQL mutation that runs it" }),
    permitted: t.exposeBoolean("permitted", { description: "Whether the viewer may run it" }),
  }),
});

/** The available actions of one state machine, `<Machine>AvailableTransition`, whose `to` is a state of its enum. */
export const availableTransitionType = (machine: string, states: EnumRef<Types, string, string>) =>
  builder.objectRef<AvailableTransition>(`${machine}AvailableTransition`).implement({
    description: `An action the ${machine}'s state allows now, and whether the viewer may run it`,
    interfaces: [AvailableTransitionInterface],
    fields: (t) => ({ to: t.field({ type: states, description: "The state it leads to", resolve: (action): string => action.to }) }),
  });

/** Per-state totals of a list, under one filter. */
export interface StateCount {
  state: string;
  count: number;
}
