interface Waiting<Item, Answer> {
  item: Item;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

/**
 * Gathers the calls made in one tick by scope (a connection) and key, and answers each group with one `answer` of
 * its items (an answer per item, in their order): Prisma's client batches its findUnique calls so, which is what
 * keeps a record field resolved for every row of a list one statement.
 */
export function tickBatches<Scope, Item, Answer>(answer: (scope: Scope, items: Item[]) => Promise<Answer[]>) {
  let pending = new Map<Scope, Map<string, Waiting<Item, Answer>[]>>();
  const dispatch = () => {
    const batches = pending;
    pending = new Map();
    for (const [scope, byKey] of batches) {
      for (const waiting of byKey.values()) {
        answer(
          scope,
          waiting.map((w) => w.item),
        ).then(
          (answers) => waiting.forEach((w, i) => w.resolve(answers[i])),
          (error: unknown) => waiting.forEach((w) => w.reject(error)),
        );
      }
    }
  };
  return (scope: Scope, key: string, item: Item) =>
    new Promise<Answer>((resolve, reject) => {
      if (!pending.size) process.nextTick(dispatch);
      const byKey = pending.get(scope) ?? new Map<string, Waiting<Item, Answer>[]>();
      pending.set(scope, byKey);
      byKey.set(key, [...(byKey.get(key) ?? []), { item, resolve, reject }]);
    });
}
