import { builder, nullIfMissing } from "../graphql/builder.ts";
import { collectionInputs } from "../graphql/collection-inputs.ts";
import { connectionType, nodesQuery, pageArgs, toPage, relayConnection } from "../graphql/pagination.ts";
import { apiUrl } from "../graphql/urls.ts";
import { toHex } from "../platform/ids.ts";
import { SSH_KEY_CONTRACT } from "./contract.ts";
import { sha512Fingerprint } from "./openssh.ts";
import { listServiceProviderKeys } from "./provider-keys.ts";
import * as keys from "./service.ts";
import { visibleNode } from "../graphql/nodes.ts";
import { deleted, DeletionRef } from "../graphql/deletion.ts";
import { CREATES, idInput, ON_OBJECT, resultOr, uuidOf } from "../graphql/mutations.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";

export const SshKeyRef = builder.prismaNode("SshKey", {
  ...visibleNode(keys.getSshKey),
  fields: (t) => ({
    uuid: t.string({ resolve: (k) => toHex(k.id) }),
    name: t.exposeString("name"),
    publicKey: t.exposeString("publicKey"),
    type: t.exposeString("type"),
    fingerprintMd5: t.exposeString("fingerprintMd5"),
    fingerprintSha256: t.exposeString("fingerprintSha256"),
    fingerprintSha512: t.string({ select: { publicKey: true }, resolve: (k) => sha512Fingerprint(k.publicKey) }),
    isShared: t.boolean({ description: "Shared keys are not supported: always false", resolve: () => false }),
    user: t.relation("user"),
    created: t.expose("created", { type: "DateTime" }),
    ...restPresentation({
      url: t.string({ resolve: (k, _a, ctx) => apiUrl(ctx, "sshKey", k.id) }),
      userUuid: t.string({ resolve: (k) => toHex(k.userId) }),
      userUsername: t.string({ select: { user: { select: { username: true } } }, resolve: (k) => k.user.username }),
    }),
  }),
});

const { Filter: SshKeyFilterInput, Order: SshKeyOrderEnum } = collectionInputs("SshKey", SSH_KEY_CONTRACT);
const CreateSshKeyInput = builder.inputType("CreateSshKeyInput", {
  fields: (t) => ({
    publicKey: t.string({ required: true, description: 'OpenSSH public key line: "type base64 [comment]"' }),
    name: t.string({ description: "Default: the key's comment" }),
    userUuid: t.id({ description: "Staff only: add the key for another user" }),
  }),
});
const SshKeyConnection = connectionType("SshKey", SshKeyRef);

builder.queryFields((t) => ({
  sshKeys: t.field({
    type: SshKeyConnection,
    description: "The caller's SSH keys (staff and support: all)",
    args: { filter: t.arg({ type: SshKeyFilterInput }), orderBy: t.arg({ type: [SshKeyOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(keys.listSshKeys(ctx, { filter: args.filter, orderBy: args.orderBy, page: toPage(args) }, nodesQuery(ctx, info, "SshKey"))),
  }),
  sshKey: t.prismaField({
    nullable: true,
    type: "SshKey",
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => nullIfMissing(keys.getSshKey(ctx, String(args.uuid), query)),
  }),
  serviceProviderKeys: t.field({
    type: SshKeyConnection,
    description: "SSH keys of the members of projects with a non-terminated resource of the provider's offerings",
    args: { uuid: t.arg.id({ required: true }), filter: t.arg({ type: SshKeyFilterInput }), orderBy: t.arg({ type: [SshKeyOrderEnum] }), ...pageArgs },
    resolve: (_r, args, ctx, info) =>
      relayConnection(listServiceProviderKeys(
        ctx,
        String(args.uuid),
        { filter: args.filter, orderBy: args.orderBy, page: toPage(args) },
        nodesQuery(ctx, info, "SshKey"),
      )),
  }),
}));

builder.mutationFields((t) => ({
  createSshKey: t.prismaField({
    type: "SshKey",
    ...resultOr(CREATES),
    args: { input: t.arg({ type: CreateSshKeyInput, required: true }) },
    resolve: (query, _r, { input }, ctx) =>
      keys.createSshKey(ctx, { publicKey: input.publicKey, name: input.name, userUuid: input.userUuid == null ? null : String(input.userUuid) }, query),
  }),
  deleteSshKey: t.field({
    type: DeletionRef,
    ...resultOr(ON_OBJECT),
    description: "Deletes the key (its owner or staff)",
    args: { input: t.arg({ type: idInput("deleteSshKey"), required: true }) },
    resolve: async (_root, { input }, ctx) => deleted("SshKey", await keys.deleteSshKey(ctx, uuidOf("SshKey", input.id))),
  }),
}));
