import { Prisma } from "../generated/prisma/client.ts";
import { utcDate } from "../platform/timestamps.ts";

/** DRF DecimalField(max_digits=20, decimal_places=2), the type of usage amounts: a number or a numeric string. */
export function amountError(value: unknown): string | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return "A valid number is required.";
  if (typeof value !== "number" && typeof value !== "string") return "A valid number is required.";
  const match = /^[-+]?(\d*)(?:\.(\d*))?$/.exec(String(value).trim());
  if (!match || `${match[1]}${match[2] ?? ""}` === "") return "A valid number is required.";
  if (String(value).trim().startsWith("-")) return "Ensure this value is greater than or equal to 0.";
  if ((match[2] ?? "").replace(/0+$/, "").length > 2) return "Ensure that there are no more than 2 decimal places.";
  if (match[1].replace(/^0+/, "").length > 18) return "Ensure that there are no more than 18 digits before the decimal point.";
  return undefined;
}

export const toDecimal = (value: string | number) => new Prisma.Decimal(String(value).trim()).toDecimalPlaces(2);

/** The first day (UTC) of the month `date` falls in: Waldur's billing period. */
export const billingPeriodOf = (date: Date) => utcDate(date.getUTCFullYear(), date.getUTCMonth());

const monthsLater = (period: Date, months: number) => utcDate(period.getUTCFullYear(), period.getUTCMonth() + months);

/** The billing periods a component's limit covers, by its limit_period: [first, end) or everything. */
export const LIMIT_WINDOWS: Record<string, (period: Date) => { gte?: Date; lt?: Date }> = {
  month: (period) => ({ gte: period, lt: monthsLater(period, 1) }),
  quarterly: (period) => {
    const start = monthsLater(period, -(period.getUTCMonth() % 3));
    return { gte: start, lt: monthsLater(start, 3) };
  },
  annual: (period) => ({ gte: utcDate(period.getUTCFullYear(), 0), lt: utcDate(period.getUTCFullYear() + 1, 0) }),
  total: () => ({}),
};

export const dateOnly = (date: Date) => date.toISOString().slice(0, 10);
