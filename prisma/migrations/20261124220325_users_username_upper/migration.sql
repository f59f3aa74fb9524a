-- user_username= is Django's iexact (UPPER(username) = UPPER(%s)): an equality on this index, not a trigram match.
-- (An expression index: schema.prisma cannot declare it, and Prisma's migration diff leaves it be.)
CREATE INDEX "users_username_upper_idx" ON "users" (UPPER("username"));
