/**
 * Prisma sends `mode: "insensitive"` filters to PostgreSQL as ILIKE with the caller's text as the pattern, unescaped
 * (`equals` too), so `%`, `_` and `\` would act as wildcards and escapes. These helpers make them plain characters.
 */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, "\\$&");

/** Case-insensitive equality (Django's `iexact`). */
export const iexact = (text: string) => ({ equals: likeLiteral(text), mode: "insensitive" as const });

/** Case-insensitive substring (Django's `icontains`). */
export const icontains = (text: string) => ({ contains: likeLiteral(text), mode: "insensitive" as const });
