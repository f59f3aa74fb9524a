import type { FieldRef } from "@pothos/core";
import type { Types } from "./builder.ts";

/**
 * Fields that only render Waldur's REST shape: API links (`url`), labels and integers that repeat an enum, uuids and
 * fields copied from a relation the type has as an object. They are in the internal graph only, which the REST
 * adapter's documents run on; /graphql does not show them. `{ ...restPresentation({ url: t.string(…), … }) }`.
 */
export function restPresentation<Fields extends Record<string, FieldRef<Types>>>(fields: Fields): Fields {
  for (const field of Object.values(fields)) {
    field.updateConfig((config) => {
      config.pothosOptions.subGraphs = ["internal"];
      return config;
    });
  }
  return fields;
}
