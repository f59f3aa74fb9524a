import { SSH_KEY_CONTRACT } from "../../src/ssh-keys/contract.ts";
import { readFilters, readOrdering } from "../collection-query.ts";
import { compact, hyperlink, optionalString, readAll, requiredString } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { deleteRoute, listRoute, retrieveRoute } from "./common.ts";

const KEYS = "/api/keys";

const createKeyInput = ({ body }: RestRequest) =>
  compact(
    readAll({
      publicKey: () => requiredString(body, "public_key"),
      name: () => optionalString(body, "name") ?? undefined,
      userUuid: () => (body.user === undefined || body.user === null || body.user === "" ? undefined : hyperlink(body.user, "user", "users")),
    }),
  );

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
    variables: (request) => ({ input: createKeyInput(request) }),
    kind: "object",
    status: 201,
  },
  retrieveRoute(KEYS, "Retrieve an SSH public key", "sshKey", "SshKeyRest"),
  deleteRoute(KEYS, "Delete an SSH public key (its owner or staff)", "deleteSshKey"),
  {
    method: "GET",
    path: "/api/marketplace-service-providers/:uuid/keys/",
    summary: "SSH keys of the members of projects with a live resource of the provider's offerings",
    document: `query($uuid: ID!, $first: Int, $offset: Int, $filter: SshKeyFilter, $orderBy: [SshKeyOrder!]) {
      serviceProviderKeys(uuid: $uuid, first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) { totalCount nodes { ...SshKeyRest } } }`,
    variables: ({ params, query }) =>
      compact({ uuid: params.uuid, filter: readFilters(SSH_KEY_CONTRACT, query), orderBy: readOrdering(SSH_KEY_CONTRACT, query) }),
    kind: "list",
    contract: SSH_KEY_CONTRACT,
  },
];
