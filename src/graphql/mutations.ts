import { builder } from "./builder.ts";

/** Every mutation takes one `input: <Mutation>Input!`. */
export const inputTypeName = (mutation: string) => `${mutation[0].toUpperCase()}${mutation.slice(1)}Input`;

/** The input of a mutation that names one object and nothing more: `{ uuid }`. */
export const uuidInput = (mutation: string) =>
  builder.inputType(inputTypeName(mutation), { fields: (t) => ({ uuid: t.id({ required: true }) }) });

/** Every mutation's result: its object or a typed failure (graphql/errors.ts); null only when an error went to `errors[]`. */
export const MUTATION_RESULT = { errors: {}, nullable: true } as const;
