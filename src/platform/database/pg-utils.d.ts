declare module "pg/lib/utils.js" {
  /** node-postgres's own mapping of a parameter to its text (arrays, dates, JSON, buffers), as its queries send them. */
  export function prepareValue(value: unknown): string | Buffer | null;
}
