import pg from "pg";
import { Prisma } from "../../generated/prisma/client.ts";
import { isStalePlan, type PreparedStatements } from "./prepared-statements.ts";
import { readTimestamptz } from "./timestamptz.ts";

declare module "pg" {
  interface ClientBase {
    /** The backend's pid, from the server's BackendKeyData (node-postgres sets it; its types omit it). */
    readonly processID: number | null;
  }
}

/**
 * Values as Prisma's raw queries read them where node-postgres reads them otherwise: `date` and `timestamp` in UTC
 * (not local time), `bigint` as BigInt and `numeric` as Decimal (not text); and `timestamptz` as node-postgres reads
 * it, but faster.
 */
const AS_PRISMA_READS: Record<number, (text: string) => unknown> = {
  1082: (text) => new Date(`${text}T00:00:00Z`), // date
  1114: (text) => new Date(`${text.replace(" ", "T")}Z`), // timestamp without time zone
  20: (text) => BigInt(text), // bigint
  1700: (text) => new Prisma.Decimal(text), // numeric
  1184: readTimestamptz, // timestamptz
};

export const parsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => AS_PRISMA_READS[oid] ?? pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** As Prisma sends a date: in UTC, whatever the process's time zone (node-postgres would send local time); a BigInt as its text. */
export const valueOf = (value: unknown) => (value instanceof Date ? value.toISOString() : typeof value === "bigint" ? value.toString() : value);

/** Runs `text` on `client`, named (see PreparedStatements), and answers its rows as Prisma's raw queries would. */
export async function query<Row>(client: pg.ClientBase, prepared: PreparedStatements, text: string, values: unknown[]): Promise<Row[]> {
  const name = await prepared.nameOn(client, text);
  const send = async () => (await client.query<Row & pg.QueryResultRow>({ name, text, values: values.map(valueOf), types: parsers })).rows;
  try {
    return await send();
  } catch (error) {
    // Refused before it ran: sent again, it is planned anew.
    if (!name || !isStalePlan(error)) throw error;
    await prepared.replanOn(client, name);
    return send();
  }
}

/** `work` on a connection of the pool, which is then dropped rather than reused if `work` failed (as `pool.query` does) or `drop` says so. */
export async function onPooledClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, drop = () => false): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    return await work(client);
  } catch (error) {
    failure = error as Error;
    throw error;
  } finally {
    client.release(drop() || failure);
  }
}
