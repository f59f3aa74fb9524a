import type { Context } from "../context.ts";
import { forbidden, missingObject, notFound } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";

/** Resolves a uuid given in an input field named `field`; one that names nothing (for the caller) is a field error. */
export async function referenced<T>(field: string, uuid: string | null | undefined, find: (id: string) => Promise<T | null>) {
  const id = parseUuid(uuid);
  const found = id ? await find(id) : null;
  if (!found) throw missingObject(field);
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
