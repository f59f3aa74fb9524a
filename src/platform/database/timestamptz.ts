import pg from "pg";

const readDefault = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, "text") as (text: string) => Date;

const DASH = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
const ZERO = 48;

/** The number the digits of `text` from `start` (inclusive) to `end` (exclusive) write; NaN when one is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * A `timestamptz` as PostgreSQL writes it in the ISO date style (`2026-11-29 21:05:07.042311+00`, `…+05:30`), read
 * without node-postgres' regular expressions (a page reads two per record); anything else (another style, a year of
 * other than four digits, BC, infinity, an offset with seconds) is read by node-postgres' own parser. Fractions past
 * the millisecond are dropped, as that parser drops them.
 */
export function readTimestamptz(text: string): Date {
  const length = text.length;
  if (length < 22 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH || text.charCodeAt(10) !== SPACE || text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) {
    return readDefault(text);
  }
  let at = 19;
  let ms = 0;
  if (text.charCodeAt(at) === DOT) {
    const start = ++at;
    while (at < length && text.charCodeAt(at) >= ZERO && text.charCodeAt(at) <= ZERO + 9) at++;
    const fraction = at - start;
    if (fraction === 0) return readDefault(text);
    ms = digits(text, start, start + Math.min(fraction, 3)) * (fraction === 1 ? 100 : fraction === 2 ? 10 : 1);
  }
  const sign = text.charCodeAt(at);
  const offsetLength = length - at;
  if ((sign !== PLUS && sign !== DASH) || (offsetLength !== 3 && (offsetLength !== 6 || text.charCodeAt(at + 3) !== COLON))) return readDefault(text);
  const offsetMinutes = digits(text, at + 1, at + 3) * 60 + (offsetLength === 6 ? digits(text, at + 4, at + 6) : 0);
  const year = digits(text, 0, 4);
  if (!(year >= 1000)) return readDefault(text);
  const instant = Date.UTC(year, digits(text, 5, 7) - 1, digits(text, 8, 10), digits(text, 11, 13), digits(text, 14, 16), digits(text, 17, 19), ms);
  const date = new Date(instant - (sign === PLUS ? offsetMinutes : -offsetMinutes) * 60_000);
  return Number.isNaN(date.getTime()) ? readDefault(text) : date;
}
