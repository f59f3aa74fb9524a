/** A transition rule: the states an operation may start from, where it leads, and what else it writes. */
export interface TransitionRule<S extends string, Effect = unknown> {
  from: readonly S[];
  to: S;
  effect?: Effect;
}

export type TransitionTable<Op extends string, S extends string, Effect = unknown> = Record<
  Op,
  TransitionRule<S, Effect>
>;

export const canTransition = <S extends string>(rule: TransitionRule<S, unknown>, state: S) => rule.from.includes(state);

/**
 * Applies a rule as compare-and-swap: `swap` must update the row only where its state is still one of
 * `rule.from` and return how many rows it changed. Of two concurrent calls on one record, one gets 0.
 */
export async function compareAndSwap<S extends string>(
  rule: TransitionRule<S, unknown>,
  swap: (from: S[]) => Promise<{ count: number }>,
  onLost: () => Promise<never>,
): Promise<void> {
  const { count } = await swap([...rule.from]);
  if (count === 0) await onLost();
}
