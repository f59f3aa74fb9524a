import { builder } from "../graphql/builder.ts";
import * as tokens from "./tokens.ts";

builder.prismaObjectField("User", "tokenLifetime", (t) =>
  t.int({
    nullable: true,
    description:
      "Idle lifetime of the user's tokens in seconds (null: they never expire). Shown to the user themself, staff and support; null for others.",
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
      resolve: (query, issued, _a, ctx) => ctx.db.user.findUniqueOrThrow({ ...query, where: { id: issued.userId } }),
    }),
  }),
});

builder.mutationFields((t) => ({
  logout: t.boolean({
    description: "Revoke the token this request came with; WebSockets and SSE streams it opened are closed",
    resolve: (_r, _a, ctx) => tokens.logout(ctx),
  }),
  refreshUserToken: t.field({
    type: UserAuthTokenRef,
    description: "Staff: delete every token of a user (closing what they opened) and issue a new one",
    args: { userUuid: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => tokens.refreshUserToken(ctx, String(args.userUuid)),
  }),
  updateUser: t.prismaField({
    type: "User",
    description: "Change a user (the user themself, or staff). Only `tokenLifetime` is modelled; an absent argument is left unchanged",
    args: { uuid: t.arg.id({ required: true }), tokenLifetime: t.arg.int() },
    resolve: (query, _r, args, ctx) => tokens.setTokenLifetime(ctx, String(args.uuid), args.tokenLifetime, query),
  }),
}));
