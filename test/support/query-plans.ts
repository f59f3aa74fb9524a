import pg from "pg";

/** A statement as node-postgres sent it. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

type QueryConfig = { text?: string; values?: unknown[] };

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET|SHOW|SELECT pg_backend_pid\(\))/i;

/** The statements (text and values) node-postgres sends while `run` runs; nothing else may use pg meanwhile. */
export async function captureStatements<T>(run: () => Promise<T>): Promise<{ result: T; statements: SentStatement[] }> {
  const statements: SentStatement[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    const config: QueryConfig = typeof first === "string" ? { text: first, values: Array.isArray(second) ? second : [] } : (first as QueryConfig);
    if (config?.text && !TRANSACTION_CONTROL.test(config.text)) statements.push({ text: config.text, values: config.values ?? [] });
    return Reflect.apply(query, this, args);
  } as typeof query;
  try {
    return { result: await run(), statements };
  } finally {
    pg.Client.prototype.query = query;
  }
}

/** The values that rode in a statement of rows (src/platform/reads/sql/fused-reads.ts): counts and sums, as "$value<i>". */
const FUSED_VALUES = /, \(SELECT (COUNT\(\*\)|sum\()[\s\S]*?\) AS "\$value\d+"/g;

/**
 * A statement of rows as it was before values (a count, a sum) rode in it: without its "$value" columns and their
 * parameters, which follow the rows' own.
 */
export function rowsPart(statement: SentStatement): SentStatement {
  const text = statement.text.replace(FUSED_VALUES, "");
  if (text === statement.text) return statement;
  const parameters = Math.max(0, ...[...text.matchAll(/\$(\d+)::/g)].map((match) => Number(match[1])));
  return { text, values: statement.values.slice(0, parameters) };
}

/** One node of an EXPLAIN (FORMAT JSON) plan. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Total Cost": number;
  "Plan Rows": number;
  "Actual Total Time"?: number;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

export async function explain(client: pg.Client, statement: SentStatement, analyze = false): Promise<PlanNode> {
  const { rows } = await client.query(`EXPLAIN (FORMAT JSON${analyze ? ", ANALYZE" : ""}) ${statement.text}`, statement.values);
  return rows[0]["QUERY PLAN"][0].Plan;
}

/** The tables a plan reads whole (sequential scans), of those named. */
export function sequentialScans(plan: PlanNode, tables: readonly string[]): string[] {
  const own = plan["Node Type"] === "Seq Scan" && plan["Relation Name"] && tables.includes(plan["Relation Name"]) ? [plan["Relation Name"]] : [];
  return [...own, ...(plan.Plans ?? []).flatMap((child) => sequentialScans(child, tables))];
}

/** The nodes of a plan that read `table` (scans of any kind), the plan's own first. */
export function readsOf(plan: PlanNode, table: string): PlanNode[] {
  return [...(plan["Relation Name"] === table ? [plan] : []), ...(plan.Plans ?? []).flatMap((child) => readsOf(child, table))];
}

/** A plan as indented lines (node, relation, estimated rows, actual ms when analysed). */
export function planText(plan: PlanNode, depth = 0): string {
  const time = plan["Actual Total Time"] === undefined ? "" : ` ${plan["Actual Total Time"].toFixed(1)} ms`;
  const line = `${"  ".repeat(depth)}${plan["Node Type"]}${plan["Relation Name"] ? ` on ${plan["Relation Name"]}` : ""} (rows ${plan["Plan Rows"]})${time}`;
  return [line, ...(plan.Plans ?? []).map((child) => planText(child, depth + 1))].join("\n");
}
