import { builder } from "../graphql/builder.ts";
import { collectionFields, listField } from "../graphql/collection-fields.ts";
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

export const sshKeyCollection = collectionFields({
  node: SshKeyRef, contract: SSH_KEY_CONTRACT,
  list: { description: "The caller's SSH keys (staff and support: all)", load: keys.listSshKeys }, record: keys.getSshKey,
});

const CreateSshKeyInput = builder.inputType("CreateSshKeyInput", {
  fields: (t) => ({
    publicKey: t.string({ required: true, description: 'OpenSSH public key line: "type base64 [comment]"' }),
    name: t.string({ description: "Default: the key's comment" }),
    userUuid: t.id({ description: "Staff only: add the key for another user" }),
  }),
});

builder.queryFields((t) => ({
  serviceProviderKeys: listField(t, sshKeyCollection, {
    description: "SSH keys of the members of projects with a non-terminated resource of the provider's offerings",
    args: { uuid: t.arg.id({ required: true }) },
    load: (ctx, request, query, { uuid }) => listServiceProviderKeys(ctx, String(uuid), request, query),
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
