import pg from "pg";
import { prepareValue } from "pg/lib/utils.js";

/** One statement of a pipeline: sent named (parsed once per connection) or unnamed. */
export interface PipelinedStatement {
  name?: string;
  text: string;
  values: unknown[];
}

type Parsers = pg.CustomTypesConfig;
type Field = { name: string; dataTypeID: number; format: string };

/**
 * Statements sent to the database together, with one Sync after the last: PostgreSQL runs them in one implicit
 * transaction, one after the other, and commits them at the Sync, or rolls all of them back at the first failure. One
 * round trip and one commit for all (node-postgres would send a query and wait for its answer before the next).
 */
class Pipeline implements pg.Submittable {
  readonly rows: unknown[][] = [];
  #fields: Field[] = [];
  #current: unknown[] = [];
  /** The names this pipeline parses, with their texts. */
  readonly #parsing = new Map<string, string>();

  constructor(
    private readonly statements: PipelinedStatement[],
    private readonly parsers: Parsers,
    private readonly done: (failure: Error | undefined, rows: unknown[][]) => void,
  ) {}

  submit(connection: pg.Connection) {
    connection.stream.cork();
    try {
      for (const { name, text, values } of this.statements) {
        if (!name || (connection.parsedStatements[name] === undefined && !this.#parsing.has(name))) {
          connection.parse({ text, name: name ?? "", types: [] }, false);
          if (name) this.#parsing.set(name, text);
        }
        connection.bind({ statement: name ?? "", values: values.map(prepareValue) }, false);
        connection.describe({ type: "P", name: "" }, false);
        connection.execute({ portal: "" }, false);
      }
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  handleRowDescription(message: { fields: Field[] }) {
    this.#fields = message.fields;
  }

  handleDataRow(message: { fields: Array<string | null> }) {
    const row: Record<string, unknown> = {};
    this.#fields.forEach((field, i) => {
      const value = message.fields[i];
      row[field.name] = value === null ? null : this.parsers.getTypeParser(field.dataTypeID, "text")(value);
    });
    this.#current.push(row);
  }

  handleCommandComplete() {
    this.rows.push(this.#current);
    this.#current = [];
    this.#fields = [];
  }

  handleEmptyQuery() {
    this.handleCommandComplete();
  }

  /** node-postgres lets go of a query at its first error (the rest of the pipeline is skipped until the Sync). */
  handleError(error: Error) {
    this.done(error, this.rows);
  }

  /** Known parsed once the pipeline has committed (after a failure the connection is dropped, see CommitGroups). */
  handleReadyForQuery(connection: pg.Connection) {
    for (const [name, text] of this.#parsing) connection.parsedStatements[name] = text;
    this.done(undefined, this.rows);
  }
}

/**
 * Runs `statements` as one pipeline on `client` (see Pipeline): each statement's rows once all have committed; the
 * first failure (a database error: nothing was applied) otherwise.
 */
export function runPipeline(client: pg.ClientBase, statements: PipelinedStatement[], parsers: Parsers): Promise<unknown[][]> {
  return new Promise((resolve, reject) => {
    client.query(new Pipeline(statements, parsers, (failure, rows) => (failure ? reject(failure) : resolve(rows))));
  });
}
