const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Ids rendered lately: a page shows its records', offering's and customer's ids several times, and the next page again. */
const renderedIds = new Map<string, string>();
const RENDERED_IDS_KEPT = 10_000;

/** Waldur renders uuids as 32 lowercase hex characters. */
export function toHex(uuid: string): string {
  let hex = renderedIds.get(uuid);
  if (hex === undefined) {
    hex = uuid.replaceAll("-", "").toLowerCase();
    if (renderedIds.size >= RENDERED_IDS_KEPT) renderedIds.clear();
    renderedIds.set(uuid, hex);
  }
  return hex;
}

/** Accepts the hex or the dashed form; returns the canonical dashed form, or null when malformed. */
export function parseUuid(value: unknown): string | null {
  if (typeof value !== "string" || !UUID.test(value.trim())) return null;
  const hex = toHex(value.trim());
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The ids of some rows, for a membership test. */
export const idSet = (rows: ReadonlyArray<{ id: string }>): ReadonlySet<string> => new Set(rows.map((row) => row.id));
