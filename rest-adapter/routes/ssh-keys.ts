import { COLLECTIONS } from "../../src/platform/collections.ts";
import { SSH_KEY_CONTRACT } from "../../src/ssh-keys/contract.ts";
import { defineBody, link, text, withBody } from "../body-contract.ts";
import { readFilters, readOrdering } from "../collection-query.ts";
import { compact } from "../input.ts";
import type { RouteSpec } from "../route.ts";
import { deleteRoute, listRoute, retrieveRoute } from "./common.ts";

const KEYS = `/api/${COLLECTIONS.sshKey}`;

const KEY_CREATE = defineBody({
  public_key: text({ required: true, description: 'OpenSSH public key line: "type base64 [comment]"' }),
  name: text({ absent: [null], description: "Default: the key's comment (also when null)" }),
  user: link("user", { as: "userUuid", absent: [null, ""], description: "Staff only: the user the key is for (default: the caller)" }),
});

export const sshKeyRoutes: RouteSpec[] = [
  listRoute({
    path: `${KEYS}/`,
    summary: "List SSH public keys (own; staff and support all)",
    field: "sshKeys",
    type: "SshKey",
    fragment: "SshKeyRest",
    contract: SSH_KEY_CONTRACT,
  }),
  {
    method: "POST",
    path: `${KEYS}/`,
    summary: "Add an SSH public key: {public_key, name?} (staff may name another `user`)",
    document: `mutation($input: CreateSshKeyInput!) { createSshKey(input: $input) { ...SshKeyRest } }`,
    ...withBody(KEY_CREATE, (input) => ({ input })),
    kind: "object",
    status: 201,
  },
  retrieveRoute(KEYS, "Retrieve an SSH public key", "sshKey", "SshKeyRest"),
  deleteRoute(KEYS, "Delete an SSH public key (its owner or staff)", "deleteSshKey", "SshKey"),
  {
    method: "GET",
    path: `/api/${COLLECTIONS.serviceProvider}/:uuid/keys/`,
    summary: "SSH keys of the members of projects with a live resource of the provider's offerings",
    document: `query($uuid: ID!, $first: Int, $offset: Int, $filter: SshKeyFilter, $orderBy: [SshKeyOrder!]) {
      serviceProviderKeys(uuid: $uuid, first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) { totalCount nodes { ...SshKeyRest } } }`,
    variables: ({ params, query }) =>
      compact({ uuid: params.uuid, filter: readFilters(SSH_KEY_CONTRACT, query), orderBy: readOrdering(SSH_KEY_CONTRACT, query) }),
    kind: "list",
    contract: SSH_KEY_CONTRACT,
  },
];
