/** The data model as SQL sees it (generated into src/generated/sql-model.ts by prisma/sql-model-generator.mjs). */
export interface ScalarField {
  kind: "scalar" | "enum";
  /** Prisma's type: String, Int, BigInt, Float, Decimal, Boolean, DateTime, Json, Bytes, or the enum's name. */
  type: string;
  column: string;
  list: boolean;
  /** The column's native type where the schema names one (Uuid, Timestamptz, Date, VarChar…). */
  native?: string;
  /** The column may hold null (an optional field). */
  nullable?: boolean;
  /** An enum's values, in the order the schema declares them (PostgreSQL's order of the type's values). */
  values?: string[];
}

export interface RelationField {
  kind: "object";
  model: string;
  list: boolean;
  required: boolean;
  /** Columns of this model's table joined to `to`, the related table's, pairwise. */
  from: string[];
  to: string[];
}

export type Field = ScalarField | RelationField;

export interface ModelTable {
  table: string;
  fields: Record<string, Field>;
}

export type SqlModel = Record<string, ModelTable>;
