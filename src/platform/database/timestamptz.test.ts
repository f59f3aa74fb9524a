import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPGlite } from "./pglite.ts";
import { readTimestamptz } from "./timestamptz.ts";

const readDefault = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, "text") as (text: string) => Date;
const pad = (n: number, width: number) => String(n).padStart(width, "0");
const pick = <T>(values: readonly T[]) => values[Math.floor(Math.random() * values.length)]!;

/** What the text says, to the millisecond (node-postgres' parser goes through floating point to get there). */
function exactly(text: string): number {
  const [, date, time, fraction = "", sign, hours, minutes = "0"] = /^(\S+) (\d\d:\d\d:\d\d)(?:\.(\d+))?([+-])(\d\d)(?::(\d\d))?$/.exec(text)!;
  const utc = Date.parse(`${date}T${time}.${fraction.slice(0, 3).padEnd(3, "0")}Z`);
  return utc - (sign === "+" ? 1 : -1) * (Number(hours) * 60 + Number(minutes)) * 60_000;
}

describe("readTimestamptz", () => {
  it("reads what PostgreSQL writes in the ISO style as the instant it names, whatever the fraction and offset", () => {
    for (let i = 0; i < 20_000; i++) {
      const fraction = pick([0, 1, 2, 3, 4, 5, 6]);
      const text =
        `${pad(1000 + Math.floor(Math.random() * 9000), 4)}-${pad(1 + Math.floor(Math.random() * 12), 2)}-${pad(1 + Math.floor(Math.random() * 28), 2)} ` +
        `${pad(Math.floor(Math.random() * 24), 2)}:${pad(Math.floor(Math.random() * 60), 2)}:${pad(Math.floor(Math.random() * 60), 2)}` +
        (fraction ? `.${pad(Math.floor(Math.random() * 10 ** fraction), fraction)}` : "") +
        pick(["+00", "-00", "+05:30", "-03", "+14", "-12:45", "+01"]);
      const read = readTimestamptz(text).getTime();
      expect(read, text).toBe(exactly(text));
      expect(Math.abs(read - readDefault(text).getTime()), text).toBeLessThanOrEqual(1);
    }
  });

  it("leaves to node-postgres' parser what it does not read itself", () => {
    for (const text of ["infinity", "-infinity", "2026-11-29 21:05:07+05:30:12", "0099-01-01 00:00:00+00", "12026-01-01 00:00:00+00", "2026-01-01 00:00:00+00 BC", "2026-01-01 00:00:00"]) {
      expect(readTimestamptz(text), text).toEqual(readDefault(text));
    }
  });

  const pglite = createPGlite();
  afterAll(() => pglite.close());

  it.each(["UTC", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham"])("reads the database's own text in the time zone %s", async (zone) => {
    await pglite.exec(`SET TimeZone = '${zone}'`);
    const { rows } = await pglite.query<{ t: string; ms: number }>(
      `SELECT t::text AS t, floor(extract(epoch FROM t) * 1000)::float8 AS ms
       FROM (VALUES ('2026-11-29 21:05:07.042311+00'::timestamptz), ('1999-12-31 23:59:59+00'), ('2026-03-29 01:30:00.5+00'), (now())) AS v(t)`,
    );
    for (const row of rows) expect(readTimestamptz(row.t).getTime(), row.t).toBe(row.ms);
  });
});
