import { SSH_KEY_ORDER, type SshKeyOrder } from "../../src/ssh-keys/service.ts";
import { compact, hyperlink, optionalString, ordering, queryValue, readAll, requiredString, uuidParam } from "../input.ts";
import type { RestRequest, RouteSpec } from "../route.ts";
import { deleteRoute, retrieveRoute } from "./common.ts";
import { orderParams } from "./resources.ts";

const KEYS = "/api/keys";
const ORDER = orderParams<SshKeyOrder>(SSH_KEY_ORDER);

const keyListVariables = ({ query }: RestRequest) =>
  compact({
    filter: compact({
      userUuid: uuidParam(query, "user_uuid"),
      name: queryValue(query, "name"),
      fingerprintMd5: queryValue(query, "fingerprint_md5"),
      fingerprintSha256: queryValue(query, "fingerprint_sha256"),
    }),
    orderBy: ordering(query, ORDER),
  });

const createKeyInput = ({ body }: RestRequest) =>
  compact(
    readAll({
      publicKey: () => requiredString(body, "public_key"),
      name: () => optionalString(body, "name") ?? undefined,
      userUuid: () => (body.user === undefined || body.user === null || body.user === "" ? undefined : hyperlink(body.user, "user", "users")),
    }),
  );

export const sshKeyRoutes: RouteSpec[] = [
  {
    method: "GET",
    path: `${KEYS}/`,
    summary: "List SSH public keys (own; staff and support all)",
    document: `query($first: Int, $offset: Int, $filter: SshKeyFilter, $orderBy: [SshKeyOrder!]) {
      sshKeys(first: $first, offset: $offset, filter: $filter, orderBy: $orderBy) { totalCount nodes { ...SshKeyRest } } }`,
    variables: keyListVariables,
    kind: "list",
  },
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
    variables: (request) => ({ uuid: request.params.uuid, ...keyListVariables(request) }),
    kind: "list",
  },
];
