import type { Deferred, KeysetPage } from "../page-requests.ts";
import { cursorValues } from "./cursor.ts";
import { type Conditions, rowsAfter } from "./key-condition.ts";
import { type KeyTerm, reversed } from "./key-terms.ts";

/** What a keyset page reads of its list, in the list's condition language `C`. */
export interface KeysetSource<C, Row> {
  conditions: Conditions<C>;
  /** The list's rows that meet `condition`, in the order of `terms`, at most `take`, with their key's values. */
  read(condition: C, terms: readonly KeyTerm[], take: number): Promise<{ rows: Row[]; keys?: unknown[][] }>;
  /** Whether any of the list's rows meets `condition`. */
  exists(condition: C): Promise<boolean>;
}

/** The key values of a page's cursors. */
export interface PageBounds {
  after?: unknown[];
  before?: unknown[];
}

/** The cursors of a page request, read for the list `list` ordered by `terms`: a field error for one that is not its. */
export const pageBounds = (page: KeysetPage, list: string, terms: readonly KeyTerm[]): PageBounds => ({
  ...(page.after ? { after: cursorValues("after", page.after, list, terms) } : {}),
  ...(page.before ? { before: cursorValues("before", page.before, list, terms) } : {}),
});

export interface KeysetSlice<Row> {
  rows: Row[];
  /** Each row's key values, when the read gave them. */
  keys?: unknown[][];
  hasNextPage: Deferred<boolean>;
  hasPreviousPage: Deferred<boolean>;
}

/**
 * One page of a list by keyset: the rows after `after` (forward) or before `before` (backward, read in the reverse
 * order and turned around), within the other cursor if given, one more than the page to tell whether more follow.
 * Whether rows lie beyond a cursor (the page's other end) is asked of the list only when a client wants to know.
 */
export async function readKeysetPage<C, Row>(source: KeysetSource<C, Row>, terms: readonly KeyTerm[], page: KeysetPage, bounds: PageBounds): Promise<KeysetSlice<Row>> {
  const c = source.conditions;
  const [order, opposite] = page.backward ? [reversed(terms), [...terms]] : [[...terms], reversed(terms)];
  const [from, until] = page.backward ? [bounds.before, bounds.after] : [bounds.after, bounds.before];
  // Within `until`: the rows after it in the opposite order (none: the page is empty).
  const window = until ? rowsAfter(c, opposite, until) : undefined;
  const rows: Row[] = [];
  let keys: unknown[][] | undefined = [];
  if (!window || window.length) {
    const within = window && c.any(window);
    for (const segment of from ? rowsAfter(c, order, from) : [c.all([])]) {
      if (rows.length > page.size) break;
      const read = await source.read(within ? c.all([segment, within]) : segment, order, page.size + 1 - rows.length);
      rows.push(...read.rows);
      keys = keys && read.keys ? [...keys, ...read.keys] : undefined;
    }
  }
  const more = rows.length > page.size;
  rows.splice(page.size);
  keys?.splice(page.size);
  if (page.backward) {
    rows.reverse();
    keys?.reverse();
  }
  const anyFrom = (reading: readonly KeyTerm[], values: unknown[]) => async () => {
    for (const segment of rowsAfter(c, reading, values, true)) if (await source.exists(segment)) return true;
    return false;
  };
  const ahead: Deferred<boolean> = more ? () => true : until ? anyFrom(order, until) : () => false;
  const behind: Deferred<boolean> = from ? anyFrom(opposite, from) : () => false;
  return { rows, keys, hasNextPage: page.backward ? behind : ahead, hasPreviousPage: page.backward ? ahead : behind };
}
