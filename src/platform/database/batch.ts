/**
 * Collects the keys asked for within one tick and loads them with one query (a minimal DataLoader).
 * `load` returns a map from `keyOf(key)` to the value; keys it leaves out resolve to undefined.
 */
export function batchLoader<K, V>(load: (keys: K[]) => Promise<Map<string, V>>, keyOf: (key: K) => string) {
  const cache = new Map<string, Promise<V | undefined>>();
  let pending: Array<{ key: K; resolve: (value: V | undefined) => void; reject: (error: unknown) => void }> = [];

  const flush = async () => {
    const batch = pending;
    pending = [];
    try {
      const found = await load(batch.map((entry) => entry.key));
      for (const entry of batch) entry.resolve(found.get(keyOf(entry.key)));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  };

  return (key: K): Promise<V | undefined> => {
    const id = keyOf(key);
    let promise = cache.get(id);
    if (!promise) {
      promise = new Promise<V | undefined>((resolve, reject) => {
        if (pending.length === 0) queueMicrotask(flush);
        pending.push({ key, resolve, reject });
      });
      cache.set(id, promise);
    }
    return promise;
  };
}

/**
 * Collects the keys asked for until the event loop turns and answers them all from one `load`. Nothing is kept
 * afterwards, so it is safe in a context that outlives a request (a subscription's socket).
 */
export function tickBatch<K, V>(load: (keys: K[]) => Promise<(key: K) => V>): (key: K) => Promise<V> {
  let pending: Array<{ key: K; resolve: (value: V) => void; reject: (error: unknown) => void }> = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    try {
      const answer = await load(batch.map((entry) => entry.key));
      for (const entry of batch) entry.resolve(answer(entry.key));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  };
  return (key) =>
    new Promise<V>((resolve, reject) => {
      if (pending.length === 0) setImmediate(() => void flush());
      pending.push({ key, resolve, reject });
    });
}
