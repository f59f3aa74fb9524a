import { type Collection, collectionPaths, COLLECTIONS } from "../src/collections/rest-paths.ts";
import { DomainError, type FieldErrors, fieldError, invalid } from "../src/platform/errors.ts";
import { hyperlink, optionalBoolean, optionalDateTime, optionalString, pythonTypeName } from "./input.ts";
import type { JsonSchema } from "./openapi/json-schema.ts";
import type { RestRequest } from "./rest-request.ts";

/**
 * A route's request body, declared once: each REST field's form, whether it is required, and the GraphQL input name it
 * feeds. The reader (with DRF's messages, every field's errors together), the OpenAPI request body, and the renaming
 * of domain errors back to REST field names all derive from it.
 */

export interface BodyField<T, G extends string = string> {
  /** The GraphQL name the value feeds; the REST name in camelCase when not given. */
  as?: G;
  required: boolean;
  schema: JsonSchema;
  /** A link into a collection: the domain's "Object does not exist." reads as DRF's "Invalid hyperlink - …". */
  link?: boolean;
  /** The body of each item of a list field: the domain names an item's field by its GraphQL name too. */
  item?: RequestBody;
  /** Values that count as not given, as `undefined` does (where Waldur treats `null`, or `""`, as missing). */
  absent?: readonly unknown[];
  /** Reads a value that is given; failures are field errors named `name`. */
  read(value: unknown, name: string): T;
}

interface FieldOptions<G extends string> {
  required?: boolean;
  as?: G;
  description?: string;
  absent?: readonly unknown[];
}

/** A field's value type: what `read` returns, and `undefined` too where it may be absent. */
type ValueOf<F> = F extends BodyField<infer T, string> ? (F["required"] extends true ? T : T | undefined) : never;

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type GraphqlName<K extends string, F> = F extends { as: infer G extends string } ? G : Camel<K>;

export type BodyFields = Readonly<Record<string, BodyField<unknown>>>;

/** The GraphQL values a body reads to, keyed by GraphQL name. */
export type BodyValues<F extends BodyFields> = { [K in keyof F & string as GraphqlName<K, F[K]>]: ValueOf<F[K]> };

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const described = (schema: JsonSchema, description?: string) => (description ? { ...schema, description } : schema);

type IsRequired<O> = O extends { required: true } ? true : false;
/** A field as its options make it: required or not, feeding `as` or its camelCase name. */
export type Typed<T, O extends FieldOptions<string>> = Omit<BodyField<T, O["as"] & string>, "required"> & { required: IsRequired<O> };

/** A field of form `schema` whose present values `read` reads; route-specific forms are built with it too. */
export function bodyField<T, const O extends FieldOptions<string>>(
  options: O,
  schema: JsonSchema,
  read: (value: unknown, name: string) => T,
): Typed<T, O> {
  const required = Boolean(options.required);
  // `required` is `options.required` as a value; TypeScript cannot carry the literal through Boolean().
  return { required: required as IsRequired<O>, as: options.as, absent: options.absent, schema: described(schema, options.description), read };
}

/** A string. Optional ones pass `null` on; required ones refuse it; `blank: false` refuses "". */
export const text = <const O extends FieldOptions<string> & { blank?: false }>(options = {} as O) =>
  bodyField<O extends { required: true } ? string : string | null, O>(options, { type: "string" }, (value, name) => {
    if (value === null && options.required) throw fieldError(name, "This field may not be null.");
    const read = optionalString({ [name]: value }, name);
    if (read === "" && options.blank === false) throw fieldError(name, "This field may not be blank.");
    // Required values are never null: refused above.
    return read as string;
  });

/** DRF's BooleanField: `true`, `"yes"`, `1`, … ; `null` counts as absent. */
export const flag = <const O extends FieldOptions<string>>(options = {} as O) =>
  bodyField<boolean | undefined, O>(options, { type: "boolean" }, (value, name) => optionalBoolean({ [name]: value }, name));

export const integer = <const O extends FieldOptions<string>>(options = {} as O) =>
  bodyField<number | undefined, O>(options, { type: "integer" }, (value, name) => {
    if (value === null) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value)) throw fieldError(name, "A valid integer is required.");
    return value;
  });

export const dateTime = <const O extends FieldOptions<string>>(options = {} as O) =>
  bodyField<O extends { required: true } ? string : string | null, O>(options, { type: "string", format: "date-time" }, (value, name) => {
    if (value === null && options.required) throw fieldError(name, "This field may not be null.");
    // Required values are never null: refused above.
    return optionalDateTime({ [name]: value }, name) as string;
  });

/** An object of `collection` given by its URL or bare uuid; read as the uuid. */
export const link = <const O extends FieldOptions<string>>(collection: Collection, options = {} as O) => ({
  ...bodyField<string, O>(
    options,
    { type: "string", format: "uri", description: options.description ?? `URL of an object of /api/${COLLECTIONS[collection]}/ (its bare uuid is accepted too)` },
    (value, name) => hyperlink(value, name, collectionPaths(collection)),
  ),
  link: true,
});

/** One of `values`, spelled as REST spells them, read as the GraphQL enum value `valueOf` gives; `null` is passed on. */
export const choice = <const O extends FieldOptions<string>, E extends string>(valueOf: Readonly<Record<string, E>>, options = {} as O) =>
  bodyField<E | null, O>(options, { type: "string", enum: Object.keys(valueOf) }, (value, name) => {
    const label = optionalString({ [name]: value }, name);
    if (label == null) return null;
    if (!Object.hasOwn(valueOf, label)) throw fieldError(name, `"${label}" is not a valid choice.`);
    return valueOf[label];
  });

/** Any JSON value, handed to the domain as it is (which checks its shape). */
export const json = <const O extends FieldOptions<string>>(schema: JsonSchema = {}, options = {} as O) =>
  bodyField<unknown, O>(options, schema, (value) => value);

/** A list of objects, each read by `fields`; problems are reported per item, as "Item n: field: message". */
export const items = <const O extends FieldOptions<string>, F extends BodyFields>(fields: F, options = {} as O) => {
  const item = defineBody(fields);
  const list = bodyField<Array<BodyValues<F>>, O>(options, { type: "array", items: item.schema }, (value, name) => {
    if (!Array.isArray(value)) throw fieldError(name, `Expected a list of items but got type "${pythonTypeName(value)}".`);
    const problems: string[] = [];
    const read = value.map((entry, i) => {
      try {
        return item.read(entry);
      } catch (error) {
        const fieldErrors = fieldErrorsOf(error);
        if (!fieldErrors) throw error;
        problems.push(...Object.entries(fieldErrors).map(([key, messages]) => `Item ${i + 1}: ${key}: ${messages.join(" ")}`));
        return undefined;
      }
    });
    if (problems.length) throw invalid({ [name]: problems });
    // Every item read, or the problems were thrown above.
    return read as Array<BodyValues<F>>;
  });
  return { ...list, item };
};

const fieldErrorsOf = (error: unknown) => (error instanceof DomainError ? (error.extensions.fields as FieldErrors | undefined) : undefined);

/** Fields only one of whose groups may be given (`offering`+`user` or `offering_uuid`+`user_uuid`). */
export interface Alternatives {
  groups: ReadonlyArray<readonly string[]>;
  both: string;
  neither: string;
}

export interface RequestBody<F extends BodyFields = BodyFields> {
  fields: F;
  schema: JsonSchema;
  /**
   * The REST name of each GraphQL name the body (or an item of its lists) feeds, for renaming the domain's field
   * errors; where alternatives feed one GraphQL name, the first declared (Waldur names the error so, whichever was given).
   */
  restNames: ReadonlyMap<string, string>;
  /** REST names of the link fields, items' included. */
  links: ReadonlySet<string>;
  read(body: unknown): BodyValues<F>;
}

const NOT_AN_OBJECT = "non_field_errors";

/** Declares a body; reading it reports every field's errors together, as a DRF serializer does. */
export function defineBody<const F extends BodyFields>(fields: F, alternatives?: Alternatives): RequestBody<F> {
  const graphqlName = (rest: string) => fields[rest]?.as ?? camel(rest);
  const required = Object.keys(fields).filter((rest) => fields[rest].required);
  const properties = Object.fromEntries(Object.entries(fields).map(([rest, f]) => [rest, f.schema]));
  return {
    fields,
    schema: {
      type: "object",
      properties,
      ...(required.length ? { required } : {}),
      ...(alternatives ? { oneOf: alternatives.groups.map((group) => ({ required: [...group] })) } : {}),
    },
    restNames: restNamesOf(fields, graphqlName),
    links: linksOf(fields),
    read(body) {
      if (!body || typeof body !== "object" || Array.isArray(body)) {
        throw fieldError(NOT_AN_OBJECT, `Invalid data. Expected a dictionary, but got ${pythonTypeName(body)}.`);
      }
      const given = body as Record<string, unknown>;
      if (alternatives) checkAlternatives(alternatives, given);
      const values: Record<string, unknown> = {};
      const errors: FieldErrors = {};
      for (const [rest, f] of Object.entries(fields)) {
        const value = Object.hasOwn(given, rest) ? given[rest] : undefined;
        try {
          if (value === undefined || f.absent?.includes(value)) {
            if (f.required && !alternatives) throw fieldError(rest, "This field is required.");
            continue;
          }
          const read = f.read(value, rest);
          if (read !== undefined) values[graphqlName(rest)] = read;
        } catch (error) {
          const fieldErrors = fieldErrorsOf(error);
          if (!fieldErrors) throw error;
          Object.assign(errors, fieldErrors);
        }
      }
      if (Object.keys(errors).length) throw invalid(errors);
      return values as BodyValues<F>;
    },
  };
}

function restNamesOf(fields: BodyFields, graphqlName: (rest: string) => string): Map<string, string> {
  const byGraphqlName = new Map<string, string>();
  for (const [rest, f] of Object.entries(fields)) {
    if (!byGraphqlName.has(graphqlName(rest))) byGraphqlName.set(graphqlName(rest), rest);
    for (const [name, itemRest] of f.item?.restNames ?? []) if (!byGraphqlName.has(name)) byGraphqlName.set(name, itemRest);
  }
  return byGraphqlName;
}

const linksOf = (fields: BodyFields): Set<string> =>
  new Set(Object.entries(fields).flatMap(([rest, f]) => [...(f.link ? [rest] : []), ...(f.item?.links ?? [])]));

function checkAlternatives({ groups, both, neither }: Alternatives, body: Record<string, unknown>) {
  const given = groups.filter((group) => group.some((rest) => body[rest] !== undefined));
  if (given.length > 1) throw fieldError(NOT_AN_OBJECT, both);
  if (!given.length) throw fieldError(NOT_AN_OBJECT, neither);
  const missing = given[0].filter((rest) => body[rest] === undefined);
  if (missing.length) throw invalid(Object.fromEntries(missing.map((rest) => [rest, ["This field is required."]])));
}

/** A route that reads `body` and turns its values (and the path, query) into the operation's variables. */
export const withBody = <F extends BodyFields>(
  body: RequestBody<F>,
  variables: (input: BodyValues<F>, request: RestRequest) => Record<string, unknown>,
) => ({ body, variables: (request: RestRequest) => variables(body.read(request.body), request) });
