/** Deeper JSON is refused where it enters: JSON.stringify and other recursive code overflow the stack a few thousand levels down. */
export const MAX_JSON_DEPTH = 512;

/** True when `value` nests arrays and objects deeper than `limit`. Iterative, so measuring is safe at any depth. */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/** True when a key or string anywhere in `value` holds a lone UTF-16 surrogate, which PostgreSQL cannot take as JSON. */
export function holdsLoneSurrogates(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item === "string" && !item.isWellFormed()) return true;
    if (item === null || typeof item !== "object") continue;
    for (const [key, child] of Object.entries(item)) {
      if (!key.isWellFormed()) return true;
      pending.push(child);
    }
  }
  return false;
}

/** PostgreSQL's JSON holds no lone UTF-16 surrogate, and refuses one in a comparison: such a text matches no stored JSON. */
export const comparableWithJson = (text: string) => text.isWellFormed();
