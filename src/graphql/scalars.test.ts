import { describe, expect, it } from "vitest";
import { formatDateTime } from "./scalars.ts";

/** What DRF renders: toISOString with its milliseconds as microseconds, or none when they are zero. */
const drf = (date: Date) => {
  const iso = date.toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : `${iso.slice(0, -1)}000Z`;
};

describe("formatDateTime", () => {
  it("writes what DRF renders, whatever the fields' widths", () => {
    const instants = [0, 1, 9, 10, 99, 100, 999].flatMap((ms) => [
      Date.UTC(2026, 0, 1, 0, 0, 0, ms),
      Date.UTC(2026, 11, 31, 23, 59, 59, ms),
      Date.UTC(1000, 0, 1, 0, 0, 0, ms),
      Date.UTC(9999, 11, 31, 23, 59, 59, ms),
      Date.UTC(999, 11, 31, 23, 59, 59, ms),
      Date.UTC(10000, 0, 1, 0, 0, 0, ms),
    ]);
    for (let i = 0; i < 2000; i++) instants.push(Math.floor(Math.random() * 4e12) - 1e12);
    for (const instant of instants) expect(formatDateTime(new Date(instant))).toBe(drf(new Date(instant)));
    expect(formatDateTime(new Date(Date.UTC(2026, 10, 29, 21, 5, 7, 42)))).toBe("2026-11-29T21:05:07.042000Z");
  });

  it("refuses an invalid date", () => {
    expect(() => formatDateTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
