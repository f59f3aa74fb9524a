import type { EnumRef } from "@pothos/core";
import type { TransitionRule } from "../platform/state-machine.ts";
import { builder, type Types } from "./builder.ts";

/**
 * A transition clients run. Its table entry names the GraphQL mutation that runs it: the mutation field, its input
 * type and the REST route's document are all named from `mutation`, in every domain alike.
 */
export interface ExposedTransition<S extends string, Effect = unknown> extends TransitionRule<S, Effect> {
  mutation: string;
}

/** One action a state machine allows from a record's present state. */
export interface AvailableTransition {
  operation: string;
  mutation: string;
  to: string;
  permitted: boolean;
}

/** An action `rule` allows from the record's present state, as `availableTransitions` lists it. */
export const availableTransition = <S extends string>(operation: string, rule: ExposedTransition<S>, permitted: boolean): AvailableTransition => ({
  operation,
  mutation: rule.mutation,
  to: rule.to,
  permitted,
});

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
