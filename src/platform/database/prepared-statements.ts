import { createHash } from "node:crypto";
import pg from "pg";

declare module "pg" {
  interface ClientBase {
    /** The client's protocol connection (node-postgres has it on every client; its types declare it on `Client` only). */
    readonly connection: Connection;
  }
  interface Connection {
    /** The names node-postgres has parsed on this connection, with their texts (it skips Parse for them). */
    parsedStatements: Record<string, string>;
  }
}

/** PostgreSQL's answer to a kept statement whose result's types a migration changed (SQLSTATE 0A000). */
export const isStalePlan = (error: unknown) => error instanceof pg.DatabaseError && error.code === "0A000" && /cached plan must not change result type/.test(error.message);

/** Lets the backend forget `name`, and node-postgres too, so that it sends the text to be parsed again when asked. */
async function deallocate(client: pg.ClientBase, name: string) {
  await client.query(`DEALLOCATE "${name}"`);
  delete client.connection.parsedStatements[name];
}

/** Texts whose names are remembered; beyond that a name is hashed again (a few µs). */
const REMEMBERED_NAMES = 2_000;

/**
 * Names statements so that each connection parses and plans a text once and then only binds and executes it (on the
 * frontend's page that halves the database's CPU for the statement). A connection holds at most `perConnection`
 * statements: the least recently used one is deallocated to make room. 0 names nothing.
 */
export class PreparedStatements {
  private readonly names = new Map<string, string>();
  private readonly held = new WeakMap<pg.ClientBase, Set<string>>();

  constructor(private readonly perConnection: number) {}

  /** The name to send `text` under on `client`, after making room for it; undefined: send it unnamed. */
  async nameOn(client: pg.ClientBase, text: string): Promise<string | undefined> {
    if (this.perConnection <= 0) return undefined;
    const name = this.nameOf(text);
    let held = this.held.get(client);
    if (!held) this.held.set(client, (held = new Set()));
    if (held.delete(name)) {
      held.add(name);
      return name;
    }
    if (held.size >= this.perConnection) {
      const [oldest] = held;
      held.delete(oldest);
      // Every name held was parsed: a connection whose statement failed is dropped, not reused.
      await deallocate(client, oldest);
    }
    held.add(name);
    return name;
  }

  /**
   * Sends `text` named again after the database refused the plan it keeps for it: a migration changed the type of a
   * column it reads ("cached plan must not change result type"), which PostgreSQL does not re-plan by itself.
   */
  replanOn(client: pg.ClientBase, name: string): Promise<void> {
    return deallocate(client, name);
  }

  private nameOf(text: string) {
    let name = this.names.get(text);
    if (name) return name;
    name = `mg_${createHash("sha1").update(text).digest("base64url")}`;
    if (this.names.size >= REMEMBERED_NAMES) this.names.delete(this.names.keys().next().value!);
    this.names.set(text, name);
    return name;
  }
}
