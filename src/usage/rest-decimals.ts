import { fieldError } from "../platform/errors.ts";
import { amountError } from "./amounts.ts";
import type { JsonSchema } from "../../rest-adapter/openapi/json-schema.ts";

/** Decimal fields several route files read alike (usage, per-user limits). */

/** DRF DecimalField(max_digits=20, decimal_places=2): a number or a numeric string. */
export const DECIMAL: JsonSchema = { type: ["string", "number"], description: "A decimal number, at most 2 decimal places" };

/** A decimal as the services take it: numbers and numeric strings as text, anything else as "" (which fails as "not a number"). */
export const decimalText = (value: unknown) => (typeof value === "number" || typeof value === "string" ? String(value) : "");

/** A decimal checked here, with DRF's messages, rather than by the service. */
export function checkedDecimal(value: unknown, name: string): string {
  const text = decimalText(value);
  const problem = amountError(text);
  if (problem) throw fieldError(name, problem);
  return text;
}
