import type { EnumRef, InputFieldBuilder, InputFieldsFromShape, RecursivelyNormalizeNullableFields } from "@pothos/core";
import {
  type CollectionContract,
  type Filter,
  type FilterValues,
  type OrderValue,
  orderValues,
} from "../collections/contract.ts";
import { builder, type Types } from "./builder.ts";

type Fields = InputFieldBuilder<Types, "InputObject">;

/** The GraphQL enums that choice filters name (`enumName`), so one enum serves the object type and its filter. */
export type ChoiceEnums = Readonly<Record<string, EnumRef<Types, string, string>>>;

function inputField(t: Fields, name: string, filter: Filter<unknown>, enums: ChoiceEnums) {
  const description = filter.description;
  switch (filter.kind) {
    case "uuids":
      return t.idList({ description: description ?? "Any of these" });
    case "choice": {
      const ref = enums[filter.enumName];
      if (!ref) throw new Error(`The ${name} filter names the enum ${filter.enumName}, which was not given.`);
      return t.field({ type: [ref], description: description ?? "Any of these" });
    }
    case "after":
    case "before":
    case "date":
      return t.field({ type: "DateTime", description });
    case "boolean":
      return t.boolean({ description });
    case "text":
      return t.string({ description });
    case "texts":
      return t.stringList({ description: description ?? "Any of these" });
    case "int":
      return t.int({ description });
    case "number":
      return t.float({ description });
  }
}

/** The filter input (`<Name>Filter`) and order enum (`<Name>Order`) of a collection, derived from its contract. */
export function collectionInputs<C extends CollectionContract>(name: string, contract: C, enums: ChoiceEnums = {}) {
  const Filter = builder.inputRef<FilterValues<C>, false>(`${name}Filter`).implement({
    // Pothos cannot follow a mapped object; FilterValues<C> states the same mapping, kind by kind, as inputField.
    fields: (t) =>
      Object.fromEntries(
        Object.entries(contract.filters).map(([arg, filter]) => [arg, inputField(t, arg, filter, enums)]),
      ) as InputFieldsFromShape<Types, RecursivelyNormalizeNullableFields<FilterValues<C>>, "InputObject">,
  });
  const Order = builder.enumType(`${name}Order`, { values: [...orderValues(contract).keys()] as Array<OrderValue<C>> });
  return { Filter, Order };
}
