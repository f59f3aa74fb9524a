import { type DocumentNode, type GraphQLSchema, Kind, type SelectionSetNode, TypeInfo, visit, visitWithTypeInfo } from "graphql";

const isEmpty = (selections: SelectionSetNode | undefined) => selections !== undefined && selections.selections.length === 0;

/**
 * A REST route's document (which runs on the internal graph) as /graphql takes it: the fields only the internal graph
 * has (REST's presentation) left out, and any field or fragment left with nothing selected.
 */
export function inPublicShape(document: DocumentNode, publicSchema: GraphQLSchema): DocumentNode {
  const typeInfo = new TypeInfo(publicSchema);
  const pruned = visit(document, visitWithTypeInfo(typeInfo, { [Kind.FIELD]: () => (typeInfo.getFieldDef() ? undefined : null) }));
  return visit(pruned, {
    [Kind.FIELD]: { leave: (node) => (isEmpty(node.selectionSet) ? null : undefined) },
    [Kind.INLINE_FRAGMENT]: { leave: (node) => (isEmpty(node.selectionSet) ? null : undefined) },
  });
}
