import type { FieldRef } from "@pothos/core";
import type { Types } from "../graphql/builder.ts";
import { showThroughRecord } from "./visibility.ts";

/** The fields of a user, project or customer that records show of them (the rest need the viewer to see the object). */
export type ShownUserField = "email" | "firstName" | "lastName" | "fullName";
export type ShownProjectField = "description" | "endDate";
export type ShownCustomerField = "abbreviation" | "nativeName";

/**
 * A relation to a user, project or customer that shows these of its fields to whoever may see the parent record, as Waldur's
 * serializer of that record does with its flattened fields (`user_email`, `project_description`):
 * `user: showing(t.relation("user"), ["email", "fullName"])`.
 */
export function showing<Ref extends FieldRef<Types>>(
  relation: Ref,
  fields: readonly (ShownUserField | ShownProjectField | ShownCustomerField)[],
): Ref {
  const shown: ReadonlySet<string> = new Set(fields);
  relation.updateConfig((config) => {
    const resolve = config.resolve;
    const showRow = (row: unknown) => (typeof row === "object" && row !== null ? showThroughRecord(row, shown) : row);
    if (resolve) {
      config.resolve = (parent, args, ctx, info) => {
        const row: unknown = resolve(parent, args, ctx, info);
        return row instanceof Promise ? row.then(showRow) : showRow(row);
      };
    }
    return config;
  });
  return relation;
}
