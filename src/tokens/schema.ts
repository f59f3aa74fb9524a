import { AuthenticationError, ValidationError } from "../platform/errors.ts";
import { builder } from "../graphql/builder.ts";
import * as tokens from "./service.ts";
import { objectIdField, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import { findUniqueOrThrow } from "../platform/reads/sql/find.ts";

builder.prismaObjectField("User", "tokenLifetime", (t) =>
  t.int({
    nullable: true,
    description:
      "Idle lifetime of the user's tokens in seconds (null: they never expire). Shown to the user themself, staff and support; null for others.",
    select: { tokenLifetime: true },
    resolve: (user, _a, ctx) => (tokens.seesTokenLifetime(ctx, user.id) ? user.tokenLifetime : null),
  }),
);

type IssuedToken = Awaited<ReturnType<typeof tokens.refreshUserToken>>;

const UserAuthTokenRef = builder.objectRef<IssuedToken>("UserAuthToken").implement({
  description: "A newly issued token: its key is shown this once (only a digest is stored)",
  fields: (t) => ({
    token: t.exposeString("token"),
    created: t.expose("created", { type: "DateTime" }),
    user: t.prismaField({
      type: "User",
      resolve: (query, issued, _a, ctx) => findUniqueOrThrow(ctx.db, "user", { ...query, where: { id: issued.userId } }),
    }),
  }),
});

const LoggedOutRef = builder.objectRef<{ userId: string }>("LoggedOut").implement({
  description: "The token the request came with is revoked",
  fields: (t) => ({
    user: t.prismaField({
      type: "User",
      description: "Whose token it was",
      resolve: (query, out, _a, ctx) => findUniqueOrThrow(ctx.db, "user", { ...query, where: { id: out.userId } }),
    }),
  }),
});

const RefreshUserTokenInput = builder.inputType("RefreshUserTokenInput", { fields: (t) => ({ userUuid: t.id({ required: true }) }) });

const UpdateUserInput = builder.inputType("UpdateUserInput", {
  fields: (t) => ({ id: objectIdField(t), tokenLifetime: t.int() }),
});

builder.mutationFields((t) => ({
  logout: t.field({
    type: LoggedOutRef,
    nullable: true,
    description: "Revoke the token this request came with; WebSockets and SSE streams it opened are closed",
    resolve: async (_r, _a, ctx) => {
      const viewer = ctx.requireViewer();
      await tokens.logout(ctx);
      return { userId: viewer.id };
    },
  }),
  refreshUserToken: t.field({
    type: UserAuthTokenRef,
    ...resultOr(ON_OBJECT),
    description: "Staff: delete every token of a user (closing what they opened) and issue a new one",
    args: { input: t.arg({ type: RefreshUserTokenInput, required: true }) },
    resolve: (_r, { input }, ctx) => tokens.refreshUserToken(ctx, String(input.userUuid)),
  }),
  updateUser: t.prismaField({
    type: "User",
    ...resultOr(ON_OBJECT, ValidationError),
    description: "Change a user (the user themself, or staff). Only `tokenLifetime` is modelled; an absent field is left unchanged",
    args: { input: t.arg({ type: UpdateUserInput, required: true }) },
    resolve: (query, _r, { input }, ctx) => tokens.setTokenLifetime(ctx, uuidOf("User", input.id), input.tokenLifetime, query),
  }),
}));

const TokenRef = builder.objectRef<{ token: string }>("AuthToken").implement({
  fields: (t) => ({ token: t.exposeString("token") }),
});

const ObtainTokenInput = builder.inputType("ObtainTokenInput", {
  fields: (t) => ({ username: t.string({ required: true }), password: t.string({ required: true }) }),
});

builder.mutationFields((t) => ({
  obtainToken: t.field({
    type: TokenRef,
    ...resultOr(AuthenticationError),
    description: "Exchange a username and password for a new API token",
    args: { input: t.arg({ type: ObtainTokenInput, required: true }) },
    resolve: async (_r, { input }, ctx) => ({ token: await tokens.obtainToken(ctx, input.username, input.password) }),
  }),
}));
