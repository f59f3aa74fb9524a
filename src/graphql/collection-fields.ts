import type { InputFieldMap, InputShapeFromFields, ObjectRef, QueryFieldBuilder } from "@pothos/core";
import { queryFromInfo } from "@pothos/plugin-prisma";
import type { GraphQLResolveInfo } from "graphql";
import type { Context } from "../context.ts";
import type { CollectionContract, FilterValues, OrderValue } from "../collections/contract.ts";
import type { ListRequest } from "../collections/list-page.ts";
import { type CollectionName, type CollectionNames, nodeTypeName } from "../collections/type-names.ts";
import type { Connection } from "../platform/reads/paginate.ts";
import { builder, nullIfMissing, type Types } from "./builder.ts";
import { type ChoiceEnums, collectionInputs } from "./collection-inputs.ts";
import { connectionType, nodesQuery, type PageArgs, pageArgs, relayConnection, type RelayPage, selectsCursors, toPage } from "./pagination.ts";

type ListArgs<C extends CollectionContract> = PageArgs & { filter?: FilterValues<C> | null; orderBy?: OrderValue<C> | Array<OrderValue<C>> | null };
type RecordArgs<C extends CollectionContract> = Record<string, unknown> & { filter?: FilterValues<C> | null };

/** The selection plugin-prisma plans for the nodes or the record a field returns. */
export type NodeQuery = ReturnType<typeof nodesQuery>;

/** The contract, and the filter input and order enum derived from it. */
type Inputs<C extends CollectionContract> = ReturnType<typeof collectionInputs<C>> & { contract: C; name: string };

/** What a list of the collection is made of: its filter input, order enum, connection type and node type. */
export type CollectionRefs<C extends CollectionContract, T> = Inputs<C> & { Connection: ObjectRef<Types, RelayPage<T>>; node: ObjectRef<Types, T> };

export interface ListFieldSpec<C extends CollectionContract, T, Extra extends InputFieldMap = {}> {
  description?: string;
  /** Arguments the list takes besides its filter, order and page (a view, a parent's uuid). */
  args?: Extra;
  /** The order is one value, not a list (the service is handed it as a list of one). */
  oneOrder?: boolean;
  load: (ctx: Context, request: ListRequest<C>, query: NodeQuery, args: InputShapeFromFields<Extra>) => Promise<Connection<T>>;
}

export interface RecordFieldSpec<C extends CollectionContract, T, Extra extends InputFieldMap = {}> {
  description?: string;
  /** The argument that names the record: `uuid` unless said otherwise. */
  key?: string;
  /** The record also takes the list's filter, and is found only if it passes it. */
  filtered?: boolean;
  args?: Extra;
  load: (ctx: Context, key: string, query: NodeQuery, args: InputShapeFromFields<Extra> & { filter?: FilterValues<C> | null }) => Promise<T>;
}

/** The arguments a resolver was given beyond the ones named: the `Extra` of a spec. */
function extraOf<Extra extends InputFieldMap>(args: object, extra: Extra | undefined): InputShapeFromFields<Extra> {
  const names = new Set(Object.keys(extra ?? {}));
  // Pothos cannot follow the shape of a generic argument map; these are exactly Extra's keys, as GraphQL gave them.
  return Object.fromEntries(Object.entries(args).filter(([name]) => names.has(name))) as InputShapeFromFields<Extra>;
}

/** A connection field over a collection: `filter`, `orderBy`, the paging arguments and any of the list's own. */
export function listField<C extends CollectionContract, T, Extra extends InputFieldMap = {}>(
  t: QueryFieldBuilder<Types, {}>,
  refs: CollectionRefs<C, T>,
  spec: ListFieldSpec<C, T, Extra>,
) {
  const orderBy = spec.oneOrder ? t.arg({ type: refs.Order }) : t.arg({ type: [refs.Order] });
  return t.field({
    type: refs.Connection,
    description: spec.description,
    args: { ...spec.args, filter: t.arg({ type: refs.Filter }), orderBy, ...pageArgs },
    resolve: (_root, args, ctx, info) => {
      // Pothos cannot resolve argument shapes typed by a generic contract; these are the arguments declared above.
      const given = args as ListArgs<C>;
      const chosen = given.orderBy;
      const request = { filter: given.filter, orderBy: chosen == null || Array.isArray(chosen) ? chosen : [chosen], page: toPage(given, selectsCursors(info)) };
      return relayConnection(spec.load(ctx, request, nodesQuery(ctx, info, refs.node.name), extraOf(given, spec.args)));
    },
  });
}

const recordQuery = (ctx: object, info: GraphQLResolveInfo) => queryFromInfo({ context: ctx, info, awaitSelections: true });

/** One record of a collection by its uuid (or the key named), null when it is missing or hidden from the viewer. */
function recordField<C extends CollectionContract, T, Extra extends InputFieldMap = {}>(
  t: QueryFieldBuilder<Types, {}>,
  refs: Pick<CollectionRefs<C, T>, "Filter" | "node">,
  spec: RecordFieldSpec<C, T, Extra>,
) {
  const key = spec.key ?? "uuid";
  const node: ObjectRef<Types, unknown> = refs.node;
  return t.field({
    type: node,
    nullable: true,
    description: spec.description,
    args: { [key]: t.arg.id({ required: true }), ...spec.args, ...(spec.filtered ? { filter: t.arg({ type: refs.Filter }) } : {}) },
    resolve: async (_root, args, ctx, info) => {
      // As in listField: the shape of arguments typed by a generic contract is beyond Pothos.
      const given = args as RecordArgs<C>;
      return nullIfMissing(spec.load(ctx, String(given[key]), await recordQuery(ctx, info), { ...extraOf(given, spec.args), filter: given.filter }));
    },
  });
}

/**
 * A collection's own filter input and order enum (`<name>Filter`, `<name>Order`; `name` is the node's type name unless
 * given), or those of the collection it is a view of.
 */
type InputsDeclaration<C extends CollectionContract> = { name?: CollectionName; contract: C; enums?: ChoiceEnums } | { sameInputsAs: Inputs<C> };

/** A field of the collection: its loader alone, or its whole spec; `field` names it when the convention does not. */
type FieldDeclaration<Spec extends { load: unknown }> = Spec["load"] | (Spec & { field?: string });

export type CollectionDeclaration<C extends CollectionContract, T, ListExtra extends InputFieldMap, RecordExtra extends InputFieldMap> = InputsDeclaration<C> & {
  /** Its type names the connection (`<node>Connection`, `<node>Edge`) and, by default, the inputs and the fields. */
  node: ObjectRef<Types, T>;
  /** The list field, `<node>s` in lowerCamel case unless named. */
  list: FieldDeclaration<ListFieldSpec<C, T, ListExtra>>;
  /** The record field, `<node>` in lowerCamel case unless named. */
  record?: FieldDeclaration<RecordFieldSpec<C, T, RecordExtra>>;
};

const inputsOf = <C extends CollectionContract>(declared: InputsDeclaration<C>, node: ObjectRef<Types, unknown>): Inputs<C> =>
  "sameInputsAs" in declared
    ? declared.sameInputsAs
    : { contract: declared.contract, ...collectionInputs(declared.name ?? node.name, declared.contract, declared.enums), name: declared.name ?? node.name };

const lowerCamel = (typeName: string) => typeName.charAt(0).toLowerCase() + typeName.slice(1);
const plural = (word: string) => (/[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`);

/** A field declared by its loader alone or by its whole spec, as a spec and the name it is given. */
function specOf<Spec extends { load: (...args: never[]) => unknown }>(declared: FieldDeclaration<Spec>, conventionalName: string) {
  const spec: { load: Spec["load"]; field?: string } | (Spec & { field?: string }) = typeof declared === "object" ? declared : { load: declared };
  return { ...spec, field: spec.field ?? conventionalName };
}

/**
 * A collection's GraphQL surface from one declaration: its filter input and order enum (from the contract), its
 * connection type, the list field and, if declared, the record field on Query. The refs are returned for the fields
 * that still need them (another list of the collection, a count).
 */
export function collectionFields<C extends CollectionContract, T, ListExtra extends InputFieldMap = {}, RecordExtra extends InputFieldMap = {}>(
  declaration: CollectionDeclaration<C, T, ListExtra, RecordExtra>,
) {
  const { node } = declaration;
  const refs: CollectionRefs<C, T> = { ...inputsOf(declaration, node), Connection: connectionType(node.name, node), node };
  const list = specOf<ListFieldSpec<C, T, ListExtra>>(declaration.list, plural(lowerCamel(node.name)));
  const record = declaration.record && specOf<RecordFieldSpec<C, T, RecordExtra>>(declaration.record, lowerCamel(node.name));
  builder.queryFields((t) => ({
    [list.field]: listField(t, refs, list),
    ...(record ? { [record.field]: recordField(t, refs, record) } : {}),
  }));
  const names: CollectionNames<C> = {
    name: refs.name,
    contract: refs.contract,
    listField: list.field,
    recordField: record?.field,
    typeName: nodeTypeName(node.name),
  };
  return { ...refs, ...names };
}
