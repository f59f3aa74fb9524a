/**
 * The instants both PostgreSQL and JavaScript can read back: years 1 to 9999 (Python's datetime range, so Waldur's
 * too). A timestamp of year 10000 or later is stored without complaint but fails every later read of its row.
 */
const EARLIEST = new Date("0001-01-01T00:00:00.000Z").getTime();
const LATEST = new Date("9999-12-31T23:59:59.999Z").getTime();

/** The instant `value` names, or null when it names none or one outside the storable years. */
export function parseTimestamp(value: string): Date | null {
  const time = new Date(value).getTime();
  return Number.isNaN(time) || time < EARLIEST || time > LATEST ? null : new Date(time);
}

/** Keeps a derived instant (a window around a stored one) storable. */
export const clampTimestamp = (date: Date) => new Date(Math.min(Math.max(date.getTime(), EARLIEST), LATEST));
