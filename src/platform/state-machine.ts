/** A transition rule: the states an operation may start from, where it leads, and what else it writes. */
export interface TransitionRule<S extends string, Effect = unknown> {
  from: readonly S[];
  to: S;
  effect?: Effect;
}

export const canTransition = <S extends string>(rule: TransitionRule<S, unknown>, state: S) => rule.from.includes(state);

/**
 * Applies `rule` as compare-and-swap from the state last seen: `swap(state)` must update the row only where it
 * is still in `state`. When another transaction got there first, the state it left is read back and the swap is
 * retried if the rule still allows it, so the returned state (the one actually replaced) is exact for the event.
 */
export async function swapFromObserved<S extends string>(
  rule: TransitionRule<S, unknown>,
  observed: S,
  swap: (from: S) => Promise<{ count: number }>,
  readState: () => Promise<S | null>,
  errors: { invalid: (current: S) => Error; missing: () => Error },
): Promise<S> {
  let current: S | null = observed;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (current === null) throw errors.missing();
    if (!canTransition(rule, current)) throw errors.invalid(current);
    if ((await swap(current)).count === 1) return current;
    current = await readState();
  }
  throw errors.invalid(current ?? observed);
}
