import type { ModelTable } from "./model.ts";
import { type Selection, type SelectList, selectList } from "./select.ts";
import { StatementBuilder } from "./statement.ts";

/** A select list compiled at a statement's start (its root table aliased t0): its parameters and the aliases it took. */
interface CompiledSelectList extends SelectList {
  alias: string;
  values: readonly unknown[];
  aliases: number;
}

/** A statement begun: its builder, its root table's alias, its select list. */
export interface StatementStart {
  b: StatementBuilder;
  alias: string;
  list: SelectList;
}

const MAX_ENTRIES = 500;
const cache = new Map<string, CompiledSelectList>();

/**
 * The text of a selection, its values tagged by kind (a Date and the string of its instant compile alike but are not
 * the same value); undefined when it holds something this cannot write down.
 */
export function selectionKey(model: ModelTable, selection: Selection): string | undefined {
  if (!selection.select && !selection.include) return `${model.table}|*`;
  try {
    return `${model.table}|${JSON.stringify([selection.select, selection.include], function (this: Record<string, unknown>, key, value) {
      const original = this[key];
      if (original instanceof Date) return { $date: original.toISOString() };
      if (typeof original === "bigint") return { $bigint: original.toString() };
      return value;
    })}`;
  } catch {
    return undefined;
  }
}

/**
 * A builder for a statement over `model` whose select list (`selection`) is compiled already: a page or record read
 * asks the same selection request after request (the REST routes' documents never change), and compiling it costs
 * more than the rest of the statement. Only what compiled is kept; a selection that does not translate throws each time.
 */
export function startWithSelectList(model: ModelTable, selection: Selection): StatementStart {
  const key = selectionKey(model, selection);
  let compiled = key === undefined ? undefined : cache.get(key);
  if (!compiled) {
    const b = new StatementBuilder();
    const alias = b.alias();
    const list = selectList(b, model, alias, selection);
    compiled = { ...list, alias, values: [...b.values], aliases: b.aliasCount };
    if (key !== undefined) {
      if (cache.size >= MAX_ENTRIES) cache.clear();
      cache.set(key, compiled);
    }
  }
  return { b: new StatementBuilder([...compiled.values], compiled.aliases), alias: compiled.alias, list: compiled };
}
