import { fieldError } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";

/**
 * A uuid argument, or the field's "Enter a valid UUID." error. Provider resources read their filters from their
 * contract (contract.ts); this stays for the lists that still validate uuids by hand.
 */
export function uuidOf(field: string, value: string): string {
  const uuid = parseUuid(value);
  if (!uuid) throw fieldError(field, "Enter a valid UUID.");
  return uuid;
}
