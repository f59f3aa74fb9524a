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

/**
 * Midnight UTC of `year`-`month`-`day` (month 0-based; months and days out of range roll over as in Date.UTC). Unlike
 * Date.UTC, which reads years 0–99 as 1900–1999, every year is that very year: billing_period_year=24 is year 24.
 */
export function utcDate(year: number, month: number, day = 1): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  return date;
}
