import { queryFromInfo } from "@pothos/plugin-prisma";
import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from "graphql";
import type { NodeTypeName } from "../collections/type-names.ts";

function selects(info: GraphQLResolveInfo, selectionSet: SelectionSetNode | undefined, field: string): boolean {
  return (selectionSet?.selections ?? []).some((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value === field;
    if (selection.kind === Kind.INLINE_FRAGMENT) return selects(info, selection.selectionSet, field);
    return selects(info, info.fragments[selection.name.value]?.selectionSet, field);
  });
}

/**
 * What plugin-prisma must load for the record under `field` of a mutation's result (a record of `typeName`), or
 * undefined when the client did not ask for it. The service reads it inside its transaction: a read after the commit
 * could fail on a lost connection after the change was made.
 */
export function nestedQuery(ctx: object, info: GraphQLResolveInfo, typeName: NodeTypeName, field: string) {
  if (!info.fieldNodes.some((node) => selects(info, node.selectionSet, field))) return undefined;
  return queryFromInfo({ context: ctx, info, typeName, path: [field] });
}
