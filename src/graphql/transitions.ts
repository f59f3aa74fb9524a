import { builder } from "./builder.ts";

/** One action a state machine allows from a record's present state. */
export interface AvailableTransition {
  operation: string;
  mutation: string;
  to: string;
  permitted: boolean;
}

export const AvailableTransitionRef = builder.objectRef<AvailableTransition>("AvailableTransition").implement({
  description: "An action the record's state allows now, and whether the viewer may run it",
  fields: (t) => ({
    operation: t.exposeString("operation", { description: "Waldur's name of the action (the REST path's last segment)" }),
    mutation: t.exposeString("mutation", { description: "The GraphQL mutation that runs it" }),
    to: t.exposeString("to", { description: "The state it leads to" }),
    permitted: t.exposeBoolean("permitted", { description: "Whether the viewer may run it" }),
  }),
});

/** Per-state totals of a list, under one filter. */
export interface StateCount {
  state: string;
  count: number;
}
