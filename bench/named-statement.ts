import type pg from "pg";

const names = new Map<string, string>();

/**
 * A statement sent named, so that each connection parses and plans it once: the bare handlers' floor is what
 * node-postgres does at its fastest, as the gateway's statements are named (DATABASE_PREPARED_STATEMENTS).
 */
export function named(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (!name) names.set(text, (name = `bare_${names.size}`));
  return { name, text, values };
}
