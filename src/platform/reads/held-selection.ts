import type { SelectionQuery } from "./paginate.ts";
import { isPlainObject } from "./sql/where.ts";

/**
 * Whether `row`, read and then changed in memory, already answers `query` (plugin-prisma's selection): every field it
 * selects is there, and every to-one relation it selects holds the relation's own selection. An `include` (every
 * scalar and more) or a relation with arguments (a list) needs the row read again; no selection at all asks for the
 * scalars the row was read with.
 */
export function holdsSelection(row: unknown, query: SelectionQuery): boolean {
  if (query.include) return false;
  if (!query.select) return true;
  if (!isPlainObject(row)) return false;
  return Object.entries(query.select).every(([field, wanted]) => {
    if (wanted === false || wanted === undefined) return true;
    const value = row[field];
    if (value === undefined) return false;
    if (wanted === true) return true;
    if (!isPlainObject(wanted) || Object.keys(wanted).some((key) => key !== "select")) return false;
    return value === null || holdsSelection(value, wanted);
  });
}
