import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/** The extensions the migrations create (pg_trgm: indexes for case-insensitive matches); every embedded instance loads them. */
const EXTENSIONS = { pg_trgm };

/** An embedded PostgreSQL, in memory or in `dataDir`, with the extensions the schema needs. */
export function createPGlite(options: Omit<PGliteOptions, "extensions"> = {}): PGlite {
  return new PGlite({ ...options, extensions: EXTENSIONS });
}
