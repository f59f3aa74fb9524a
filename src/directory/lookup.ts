import type { Context } from "../context.ts";
import { fieldError, forbidden, notFound } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";

/** Resolves a uuid given in a request body, or fails as DRF does for an unknown hyperlink. */
export async function referenced<T>(field: string, uuid: string | null | undefined, find: (id: string) => Promise<T | null>) {
  const id = parseUuid(uuid);
  const found = id ? await find(id) : null;
  if (!found) throw fieldError(field, "Invalid hyperlink - Object does not exist.");
  return found;
}

/** Loads an addressed object among those the viewer may see (404 otherwise). */
export async function visibleOne<T>(uuid: string, find: (id: string) => Promise<T | null>): Promise<T> {
  const id = parseUuid(uuid);
  const found = id ? await find(id) : null;
  if (!found) throw notFound();
  return found;
}

export function requireStaff(ctx: Context) {
  ctx.requireViewer();
  if (!ctx.access.isStaff) throw forbidden();
}
