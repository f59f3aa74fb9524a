import { builder } from "./builder.ts";

/** Every mutation takes one `input: <Mutation>Input!`. */
export const inputTypeName = (mutation: string) => `${mutation[0].toUpperCase()}${mutation.slice(1)}Input`;

/** The input of a mutation that names one object and nothing more: `{ uuid }`. */
export const uuidInput = (mutation: string) =>
  builder.inputType(inputTypeName(mutation), { fields: (t) => ({ uuid: t.id({ required: true }) }) });
