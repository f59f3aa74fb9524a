import type { Collection } from "../../src/platform/collections.ts";
import { fieldError } from "../../src/platform/errors.ts";
import { amountError } from "../../src/usage/amounts.ts";
import { link } from "../body-contract.ts";
import type { JsonSchema } from "../openapi/json-schema.ts";

/** Field forms several route files read alike (orders, usage, per-user limits). */

interface LinkOptions {
  required?: boolean;
  as?: string;
  description?: string;
}

/** A link that `none` values (`null`, on some routes `""` too) leave out, instead of DRF's "This field may not be null.". */
export const linkOrNone = <const O extends LinkOptions>(collection: Collection, options: O, none: readonly unknown[] = [null]) => {
  const linked = link(collection, options);
  return { ...linked, read: (value: unknown, name: string) => (none.includes(value) ? undefined : linked.read(value, name)) };
};

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
