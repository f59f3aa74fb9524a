import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/** The extensions the migrations create (pg_trgm: indexes for case-insensitive matches); every embedded instance loads them. */
const EXTENSIONS = { pg_trgm };

/**
 * PostgreSQL's buffer cache inside the embedded database's WebAssembly memory, which never shrinks: PostgreSQL's
 * default (128MB) is reached only as a long-running process touches its pages, so memory would grow with time. Pages
 * beyond it are read through the file system (and the OS's cache) of the data directory.
 */
export const EMBEDDED_SHARED_BUFFERS = "32MB";

/** An embedded PostgreSQL, in memory or in `dataDir`, with the extensions the schema needs. */
export function createPGlite(options: Omit<PGliteOptions, "extensions" | "startParams"> = {}): PGlite {
  return new PGlite({
    ...options,
    extensions: EXTENSIONS,
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
  });
}
