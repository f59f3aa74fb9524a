import { DomainError, ErrorCode } from "./errors.ts";

/** SQLSTATE class 22 (data exception) and Prisma's value errors: bad input that slipped past validation. */
const CLIENT_DATA_PRISMA_CODES = new Set(["P2000", "P2006", "P2007", "P2020", "P2023"]);
const MESSAGES: Record<string, string> = { "22021": "Null characters are not allowed." };

function sqlState(error: unknown): string | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: { code?: string } } } }).meta;
  return meta?.driverAdapterError?.cause?.code;
}

/** Turns a database rejection caused by the input into a 400-class validation error; anything else stays masked. */
export function clientDataError(error: unknown): DomainError | null {
  const state = sqlState(error);
  const prismaCode = (error as { code?: string }).code;
  if (!(state?.startsWith("22") || (prismaCode && CLIENT_DATA_PRISMA_CODES.has(prismaCode)))) return null;
  const message = (state && MESSAGES[state]) ?? "Invalid value.";
  return new DomainError(ErrorCode.VALIDATION, message, { fields: { non_field_errors: [message] } });
}
