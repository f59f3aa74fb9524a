import pg from "pg";

export const DEFAULT_SERVER_URL = "postgresql://postgres@127.0.0.1:5432/";

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function withClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The server's version string, or the reason it cannot be reached. */
export async function probe(serverUrl: string): Promise<{ version: string } | { unreachable: string }> {
  try {
    return { version: await withClient(serverUrl, async (c) => (await c.query("SHOW server_version")).rows[0].server_version) };
  } catch (error) {
    return { unreachable: (error as Error).message || String(error) };
  }
}

/** Creates `name` afresh on the server (dropping a leftover from an interrupted run). */
export async function createScratchDatabase(serverUrl: string, name: string): Promise<ScratchDatabase> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  await withClient(serverUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(serverUrl, async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}
